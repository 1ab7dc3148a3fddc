// The java launcher's choice of main class and classpath; see java_command.h.
#include "models/prefetch/java_command.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <filesystem>
#include <set>
#include <sstream>

#include "models/common/split.h"
#include "models/prefetch/jar_file.h"

namespace perflab::prefetch {
namespace fs = std::filesystem;
namespace {

// Launcher options whose value is the next argument (java.c: IsLauncherOption, IsModuleOption, the
// options of `java --help` that take one).
bool takes_value(const std::string& option) {
  static const std::set<std::string> with_value = {"-cp",
                                                   "-classpath",
                                                   "--class-path",
                                                   "-p",
                                                   "--module-path",
                                                   "--upgrade-module-path",
                                                   "--add-modules",
                                                   "--enable-native-access",
                                                   "--limit-modules",
                                                   "--add-reads",
                                                   "--add-exports",
                                                   "--add-opens",
                                                   "--patch-module",
                                                   "--source",
                                                   "--describe-module",
                                                   "-d"};
  return with_value.count(option) > 0;
}

bool ends_with_jar(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.size() > 4 &&
         (lower.compare(lower.size() - 4, 4, ".jar") == 0 || lower.compare(lower.size() - 4, 4, ".zip") == 0);
}

// One classpath element, added to `out`. `origin` names where it came from, for errors.
Status add_element(const std::string& element, const fs::path& base, const std::string& origin,
                   ResolvedClasspath& out, std::set<std::string>& seen) {
  const fs::path path =
      element.empty() ? base : (fs::path(element).is_absolute() ? fs::path(element) : base / element);
  std::error_code error;
  if (path.filename() == "*") {  // every JAR of the folder (the launcher's wildcard)
    const fs::path folder = path.parent_path();
    if (!fs::is_directory(folder, error))
      return Status::Error(origin + ": classpath element \"" + element + "\": folder " + folder.string() +
                           " does not exist, expected a folder of JARs");
    std::vector<std::string> jars;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      if (entry.is_regular_file() && ends_with_jar(entry.path().string()))
        jars.push_back(entry.path().string());
    }
    std::sort(jars.begin(), jars.end());
    for (const auto& jar : jars) {
      if (seen.insert(jar).second) out.jars.push_back(fs::path(jar).lexically_normal().string());
    }
    return Status::OK();
  }
  std::string absolute = fs::absolute(path, error).lexically_normal().string();
  while (absolute.size() > 1 && absolute.back() == '/') absolute.pop_back();  // "dir/." is "dir/"
  if (fs::is_directory(path, error)) {
    out.directories.push_back(absolute);
    return Status::OK();
  }
  if (!fs::is_regular_file(path, error))
    return Status::Error(origin + ": classpath element \"" + element + "\" (" + absolute +
                         ") does not exist, expected a JAR or a folder");
  if (seen.insert(absolute).second) out.jars.push_back(absolute);
  return Status::OK();
}

}  // namespace

Result<JavaCommand> parse_java_command(const std::vector<std::string>& arguments) {
  JavaCommand command;
  size_t i = 0;
  for (; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    if (a.empty() || a[0] != '-') break;  // the main class
    if (a == "-jar") {
      if (i + 1 >= arguments.size()) return Status::Error("-jar needs a JAR file after it");
      command.jar = arguments[i + 1];
      i += 2;
      break;
    }
    if (a == "-m" || a == "--module" || a.rfind("--module=", 0) == 0) {
      return Status::Error("a module launch (" + a +
                           ") is not supported, expected a main class on a "
                           "classpath or -jar");
    }
    if (a == "-cp" || a == "-classpath" || a == "--class-path" || a.rfind("--class-path=", 0) == 0) {
      if (a.rfind("--class-path=", 0) == 0) {
        command.classpath_option = a.substr(std::string("--class-path=").size());
      } else if (i + 1 >= arguments.size()) {
        return Status::Error(a + " needs a classpath after it");
      } else {
        command.classpath_option = arguments[++i];
      }
      continue;  // passed to the JVM by the caller from classpath_option
    }
    command.jvm_options.push_back(a);
    if (takes_value(a)) {
      if (i + 1 >= arguments.size()) return Status::Error(a + " needs a value after it");
      command.jvm_options.push_back(arguments[++i]);
    }
  }
  if (command.jar.empty()) {
    if (i >= arguments.size())
      return Status::Error(
          "no main class, expected `java [options] MAINCLASS [args]` or `java [options] "
          "-jar FILE.jar [args]`");
    command.main_class = arguments[i++];
  }
  command.program_arguments.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i), arguments.end());
  return command;
}

Result<std::string> manifest_class_path(const std::string& jar) {
  auto opened = JarFile::Open(jar);
  if (!opened.ok()) return opened.status();
  auto manifest = opened->read_entry("META-INF/MANIFEST.MF");
  if (!manifest.ok()) return manifest.status();
  if (!*manifest) return std::string();
  // Lines of at most 72 bytes; a line starting with a space continues the previous one (JAR spec).
  std::vector<std::string> lines;
  std::istringstream in(**manifest);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == ' ' && !lines.empty()) {
      lines.back() += line.substr(1);
    } else {
      lines.push_back(line);
    }
  }
  const std::string key = "class-path:";
  for (const auto& l : lines) {
    std::string lower = l.substr(0, key.size());
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (lower == key) {
      const size_t begin = l.find_first_not_of(' ', key.size());
      return begin == std::string::npos ? std::string() : l.substr(begin);
    }
  }
  return std::string();
}

Result<ResolvedClasspath> resolve_classpath(const JavaCommand& command,
                                            const std::optional<std::string>& environment_classpath,
                                            const std::string& working_directory) {
  ResolvedClasspath out;
  std::set<std::string> seen;
  const fs::path base = working_directory;
  if (!command.jar.empty()) {
    Status s = add_element(command.jar, base, "-jar", out, seen);
    if (!s.ok()) return s;
    if (out.jars.empty()) return Status::Error("-jar " + command.jar + ": not a JAR file");
    const std::string jar = out.jars.front();
    auto class_path = manifest_class_path(jar);
    if (!class_path.ok()) return class_path.status();
    std::istringstream entries(*class_path);
    std::string entry;
    const fs::path jar_folder = fs::path(jar).parent_path();
    while (entries >> entry) {
      if (entry.rfind("file:", 0) == 0) entry = entry.substr(5);
      std::error_code error;
      const fs::path path = fs::path(entry).is_absolute() ? fs::path(entry) : jar_folder / entry;
      if (!fs::exists(path, error)) {
        out.notes.push_back(jar + " manifest Class-Path: " + entry + " does not exist (the JVM skips it)");
        continue;
      }
      Status added = add_element(path.string(), base, jar + " manifest Class-Path", out, seen);
      if (!added.ok()) return added;
    }
    return out;
  }
  const std::string origin = command.classpath_option ? "-cp" : environment_classpath ? "$CLASSPATH" : "";
  const std::string classpath =
      command.classpath_option ? *command.classpath_option : environment_classpath.value_or(".");
  for (const std::string& element : split(classpath, ':')) {
    Status s = add_element(element, base, origin.empty() ? "the default classpath" : origin, out, seen);
    if (!s.ok()) return s;
  }
  return out;
}

}  // namespace perflab::prefetch
