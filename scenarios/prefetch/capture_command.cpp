// `perflab capture prefetch --out DIR -- java ... MAINCLASS|-jar FILE [args]`: the prefetch study's workload
// from any JVM program. Runs it under -Xshare:off -Xlog:class+load=info (so every class is loaded from its
// real source and logged with it), records the classpath it ran with (models/prefetch/java_command.h), and
// writes DIR/NAME.classload.log, DIR/NAME.classpath and DIR/NAME.toml: jgit-clone.toml's depth sweep on
// them. Before anything is kept, the files are read exactly as a run reads them (load_inputs), so the
// scenario runs. Bad input (not a JVM, a JVM that fails, no class from the classpath's JARs, a classpath
// element that does not exist) is an error with exit 2 and nothing written; so is Ctrl-C or SIGTERM (exit
// 130 or 143), which stops the JVM.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include <toml++/toml.h>

#include "models/prefetch/class_load_trace.h"
#include "models/prefetch/java_command.h"
#include "models/prefetch/workload.h"
#include "scenarios/prefetch/jgit_inputs.h"
#include "sim/cli/capture.h"
#include "sim/cli/child_process.h"
#include "sim/cli/commands.h"
#include "sim/runner/interrupt_guard.h"
#include "sim/scenario/scenario.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

// Where the classes of a class-load log came from, as the study sees them.
struct ClassSources {
  size_t classpath_jars = 0;  // loads from a JAR of the classpath: the workload
  size_t jdk = 0;             // jrt:/ modules and the CDS archive
  size_t other_jars = 0;      // JARs not on the recorded classpath (loaded by the program's own loaders)
  size_t elsewhere = 0;       // folders, classes defined at run time (__JVM_DefineClass__, proxies, ...,
                              // and those logged from a classpath JAR that does not hold them, as cglib's)
  size_t hidden = 0;          // hidden classes (lambdas, method handles): generated, never loaded by name
  size_t workload = 0;        // distinct classes the study replays
};

ClassSources count_sources(const std::vector<prefetch::TracedClassLoad>& loads,
                           const std::vector<std::string>& jars) {
  ClassSources c;
  const prefetch::Workload workload = prefetch::make_workload(loads, jars);
  size_t from_jars = 0;
  for (const auto& load : loads) {
    if (load.from_jdk) {
      ++c.jdk;
    } else if (load.from_jar()) {
      ++from_jars;
    } else {
      ++c.elsewhere;
    }
  }
  c.other_jars = workload.dropped;
  c.classpath_jars = from_jars - workload.dropped;
  c.workload = workload.classes.size();
  return c;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return text;
}

// Hidden classes: [class,load] lines whose name has a '/' (Foo$$Lambda$1/0x...), which the trace reader
// skips (class_load_trace.h).
size_t count_hidden(const std::string& log_text) {
  size_t hidden = 0;
  std::istringstream in(log_text);
  for (std::string line; std::getline(in, line);) {
    const size_t tag = line.find("[class,load] ");
    if (tag == std::string::npos) continue;
    const std::string name = line.substr(tag + 13, line.find(' ', tag + 13) - (tag + 13));
    if (name.find('/') != std::string::npos) ++hidden;
  }
  return hidden;
}

// The files' stem when --name is not given: the JAR's name without .jar, or the main class's simple name.
std::string default_name(const prefetch::JavaCommand& command) {
  if (!command.jar.empty()) return lowercase(fs::path(command.jar).stem().string());
  const size_t dot = command.main_class.rfind('.');
  return lowercase(dot == std::string::npos ? command.main_class : command.main_class.substr(dot + 1));
}

// jgit-clone.toml with this capture's name, trace and classpath, not a headline.
Result<std::string> scenario_text(const std::string& name, const std::string& command_line) {
  const fs::path base = scenarios_dir() / "prefetch" / "jgit-clone.toml";
  toml::table doc;
  try {
    doc = toml::parse_file(base.string());
  } catch (const toml::parse_error& e) {
    return Status::Error(base.string() + ": " + std::string(e.description()));
  }
  auto* scenario = doc["scenario"].as_table();
  auto* params = doc["params"].as_table();
  if (scenario == nullptr || params == nullptr)
    return Status::Error(base.string() + ": no [scenario] or [params]");
  scenario->insert_or_assign("name", "prefetch-" + name);
  scenario->insert_or_assign("description",
                             "the depth sweep of jgit-clone.toml on " + name + "'s class loads");
  scenario->erase("headline");
  params->insert_or_assign("trace", name + ".classload.log");
  params->insert_or_assign("classpath", toml::array{name + ".classpath"});
  std::ostringstream text;
  text << "# Written by `perflab capture prefetch` from: " << on_one_line(command_line) << "\n"
       << "# The depth sweep of scenarios/prefetch/jgit-clone.toml (same network, delays and CPU costs) on\n"
       << "# this program's class loads. Run: perflab run " << name << ".toml\n";
  for (const char* section : {"scenario", "network", "params", "sweep"}) {
    if (const auto* table = doc[section].as_table()) text << "\n[" << section << "]\n" << *table << "\n";
  }
  return text.str();
}

// The JVM the command names: its first word, or $JAVA when that word is plain `java`.
std::string jvm_of(const std::string& first) {
  const char* java = std::getenv("JAVA");
  return first == "java" && java != nullptr && *java != '\0' ? std::string(java) : first;
}

int capture_prefetch(const CaptureFlags& flags) {
  InterruptGuard interrupt;  // Ctrl-C or SIGTERM: the JVM is stopped and nothing is written
  if (flags.command.empty())
    return fail_input("capture prefetch: no command after --, expected `-- java [options] MAINCLASS [args]`");
  const std::string jvm = jvm_of(flags.command[0]);
  // Is it a JVM? Every HotSpot `java` prints its properties (on stderr) with -XshowSettings.
  const std::string probe = shell_words({jvm, "-XshowSettings:properties", "-version"});
  std::string probe_text;
  int probe_status = -1;
  if (FILE* out = popen((probe + " 2>&1").c_str(), "r")) {
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), out)) > 0;) probe_text.append(buffer, n);
    probe_status = pclose(out);
  }
  if (probe_status != 0 || probe_text.find("java.home = ") == std::string::npos) {
    return fail_input(
        "capture prefetch: \"" + jvm + "\" is not a JVM: `" + probe +
        "` did not print java.home, expected `java` (or $JAVA) or the path of a JDK's bin/java");
  }
  auto command = prefetch::parse_java_command({flags.command.begin() + 1, flags.command.end()});
  if (!command.ok())
    return fail_input("capture prefetch: " + shell_words(flags.command) + ": " + command.status().message());
  const char* environment_classpath = std::getenv("CLASSPATH");
  auto classpath = prefetch::resolve_classpath(
      *command, environment_classpath ? std::optional<std::string>(environment_classpath) : std::nullopt,
      fs::current_path().string());
  if (!classpath.ok()) return fail_input("capture prefetch: " + classpath.status().message());
  const std::string name = flags.name.empty() ? default_name(*command) : flags.name;

  auto created = CaptureFolder::Create(flags);
  if (!created.ok()) return fail_input("capture prefetch: " + created.status().message());
  CaptureFolder folder = std::move(created).value();

  const fs::path log = folder.staged(name + ".classload.log");
  if (log.string().find_first_of(":,\"") != std::string::npos)
    return fail_input("capture prefetch: --out " + flags.out +
                      " has a ':', ',' or '\"', which -Xlog cannot take");
  std::vector<std::string> argv = {jvm};
  argv.insert(argv.end(), command->jvm_options.begin(), command->jvm_options.end());
  argv.insert(argv.end(), {"-Xshare:off", "-Xlog:class+load=info:file=" + log.string()});
  if (command->classpath_option) argv.insert(argv.end(), {"-cp", *command->classpath_option});
  if (command->jar.empty()) {
    argv.push_back(command->main_class);
  } else {
    argv.insert(argv.end(), {"-jar", command->jar});
  }
  argv.insert(argv.end(), command->program_arguments.begin(), command->program_arguments.end());
  const fs::path stderr_file = folder.staged("stderr.txt");
  std::fprintf(stderr, "capture prefetch: running %s\n", shell_words(argv).c_str());
  auto ran = run_child(argv, "", stderr_file.string());
  if (!ran.ok()) return fail_input("capture prefetch: " + ran.status().message());
  if (ran->interrupted) return capture_interrupted("capture prefetch");
  if (!ran->ok()) {
    return fail_input("capture prefetch: the JVM " + ran->describe() +
                      ", expected 0; the end of its stderr:" + last_lines(stderr_file, 10));
  }
  fs::remove(stderr_file);

  auto loads = prefetch::read_class_load_trace(log.string());
  if (!loads.ok()) return fail_input("capture prefetch: " + loads.status().message());
  ClassSources sources = count_sources(*loads, classpath->jars);
  {
    std::ifstream in(log);
    sources.hidden =
        count_hidden(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  }
  if (sources.classpath_jars == 0) {
    return fail_input("capture prefetch: " + std::string(log.filename()) + ": none of its " +
                      std::to_string(loads->size()) + " class loads is from a JAR of the classpath (" +
                      std::to_string(classpath->jars.size()) + " JARs, " +
                      std::to_string(classpath->directories.size()) +
                      " folders), expected a program whose classes come from JARs");
  }

  const fs::path classpath_file = folder.staged(name + ".classpath");
  {
    std::ofstream out(classpath_file);
    out << "# The classpath of `" << on_one_line(shell_words(flags.command))
        << "` (perflab capture prefetch):\n"
        << "# its JARs, absolute, in classpath order.\n";
    for (const auto& jar : classpath->jars) out << jar << "\n";
  }
  auto text = scenario_text(name, shell_words(flags.command));
  if (!text.ok()) return fail_input("capture prefetch: " + text.status().message());
  std::ofstream(folder.staged(name + ".toml")) << *text;

  // Read back as a run of the scenario reads them: the JARs indexed, the workload replayed.
  prefetch_study::JobOptions check;
  check.trace = log.string();
  check.classpath = {classpath_file.string()};
  auto inputs = prefetch_study::load_inputs(check);
  if (!inputs.ok()) return fail_input("capture prefetch: " + inputs.status().message());
  // Logged from a classpath JAR that does not hold them: generated at run time (cglib), left out.
  const size_t generated = (*inputs)->workload.not_in_jars;
  sources.classpath_jars -= generated;
  sources.elsewhere += generated;
  sources.workload = (*inputs)->workload.classes.size();

  if (InterruptGuard::interrupted()) return capture_interrupted("capture prefetch");
  auto written = folder.commit();
  if (!written.ok()) return fail_input("capture prefetch: " + written.status().message());
  std::printf(
      "%zu class loads: %zu from the classpath's JARs (%zu distinct classes: the workload), %zu from "
      "the JDK; left out: %zu from JARs not on the classpath, %zu from elsewhere (folders, defined at "
      "run time) and %zu hidden classes (lambdas, generated)\n",
      loads->size() + sources.hidden, sources.classpath_jars, sources.workload, sources.jdk,
      sources.other_jars, sources.elsewhere, sources.hidden);
  std::printf("classpath: %zu JARs", classpath->jars.size());
  if (!classpath->directories.empty())
    std::printf(" (and %zu folders, left out)", classpath->directories.size());
  std::printf("\n");
  for (const auto& note : classpath->notes) std::printf("note: %s\n", note.c_str());
  for (const auto& file : *written) std::printf("wrote %s\n", file.c_str());
  std::printf("run it: perflab run %s\n", (folder.out() / (name + ".toml")).c_str());
  return 0;
}

}  // namespace

const CaptureRegistration kPrefetchCapture(
    {"prefetch",
     "Run a JVM program under -Xshare:off -Xlog:class+load=info: write OUT/NAME.classload.log, "
     "NAME.classpath (the JARs it ran with) and NAME.toml (jgit-clone.toml's depth sweep on them)",
     [](CLI::App&) { return capture_prefetch; }});

}  // namespace perflab
