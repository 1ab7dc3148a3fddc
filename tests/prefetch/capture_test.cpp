// `perflab capture prefetch` end to end on a second real program that is not JGit: Debian's Rhino 1.7.14
// (package rhino, `java -jar /usr/share/java/rhino.jar`, main class from its manifest) evaluating a script.
// Its class counts are checked against the log it produced, and the scenario it wrote runs. Bad inputs:
// not a JVM, a JVM that fails, no class from the classpath's JARs, a classpath element that does not exist;
// each exits 2 and writes nothing. SIGINT or SIGTERM stops the JVM and writes nothing. Skipped when there is
// no JVM or no Rhino.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "models/prefetch/jar_file.h"
#include "tests/sim/cli_runner.h"
#include "tests/sim/no_orphans.h"

namespace perflab::testing {
namespace {

namespace fs = std::filesystem;
const std::string kRhino = "/usr/share/java/rhino.jar";  // -> js.jar -> js-1.7.14.jar

bool have_java_and_rhino() {
  return std::system("java -version >/dev/null 2>&1") == 0 && fs::exists(kRhino);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Nothing in `dir` (or no `dir` at all).
bool empty_or_missing(const fs::path& dir) {
  return !fs::exists(dir) || fs::is_empty(dir);
}

TEST(CapturePrefetch, RhinoClassCountsMatchItsLogAndTheScenarioRuns) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java and Debian's rhino";
  TempDir dir;
  const fs::path out = dir / "rhino-capture";
  auto r = run_perflab("capture prefetch --out " + out.string() + " -- java -jar " + kRhino +
                       " -e 'var s = new java.util.TreeSet(); for (var i = 0; i < 50; i++) s.add(i % 7); "
                       "print(JSON.stringify({n: s.size()}))'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + (out / "rhino.classload.log").string()), std::string::npos) << r.out;

  // The classpath: the JAR itself (Rhino's manifest Class-Path is empty).
  std::vector<std::string> jars;
  for (const auto& line : lines_of(read_file(out / "rhino.classpath")))
    if (!line.empty() && line[0] != '#') jars.push_back(line);
  ASSERT_EQ(jars, std::vector<std::string>{kRhino});

  // Count the log's named classes by source, independently of the model's parser. A class logged from the
  // Rhino JAR that the JAR does not hold was generated at run time (Rhino compiles the -e script into
  // org.mozilla.javascript.gen._command__1 in the JAR's protection domain): it is left out.
  auto jar = prefetch::JarFile::Open(fs::canonical(kRhino).string());
  ASSERT_TRUE(jar.ok()) << jar.status().message();
  std::set<std::string> in_jar;
  for (const auto& entry : jar->class_entries()) in_jar.insert(entry.binary_name);
  size_t rhino = 0, jdk = 0, other = 0, hidden = 0, generated = 0;
  std::set<std::string> rhino_classes;
  const std::regex load(R"(\[info\]\[class,load\] (\S+) source: (.*)$)");
  for (const auto& line : lines_of(read_file(out / "rhino.classload.log"))) {
    std::smatch m;
    if (!std::regex_search(line, m, load)) continue;
    if (m[1].str().find('/') != std::string::npos) {  // a hidden class: Foo$$Lambda$1/0x...
      ++hidden;
      continue;
    }
    const std::string source = m[2];
    if (source == "file:" + fs::canonical(kRhino).string() && in_jar.count(m[1]) == 0) {
      ++generated;
      ++other;
    } else if (source == "file:" + fs::canonical(kRhino).string()) {
      ++rhino;
      rhino_classes.insert(m[1]);
    } else if (source.rfind("jrt:/", 0) == 0 || source.rfind("shared objects file", 0) == 0) {
      ++jdk;
    } else {
      ++other;
    }
  }
  ASSERT_GT(rhino, 100U);  // the interpreter, its parser and its shell
  ASSERT_GT(jdk, 100U);
  EXPECT_EQ(generated, 1U);  // the compiled script
  std::ostringstream expected;
  expected << rhino + jdk + other + hidden << " class loads: " << rhino << " from the classpath's JARs ("
           << rhino_classes.size() << " distinct classes: the workload), " << jdk
           << " from the JDK; left out: 0 from JARs not on the classpath, " << other
           << " from elsewhere (folders, defined at run time) and " << hidden << " hidden classes";
  EXPECT_NE(r.out.find(expected.str()), std::string::npos) << r.out << "\nexpected: " << expected.str();

  // The scenario it wrote: jgit-clone.toml's sweep on Rhino, every depth replays Rhino's classes.
  const std::string scenario = read_file(out / "rhino.toml");
  EXPECT_NE(scenario.find("trace = 'rhino.classload.log'"), std::string::npos) << scenario;
  EXPECT_NE(scenario.find("prefetch_depth = [ 0, 1, 2, 3, 5, 10, 50, 100, 500 ]"), std::string::npos)
      << scenario;
  auto ran = run_perflab("run " + (out / "rhino.toml").string() +
                         " --seeds 1 --set 'sweep.prefetch_depth=[0,1]' --format csv --out " +
                         (dir / "run").string());
  ASSERT_EQ(ran.status, 0) << ran.err;
  auto rows = parse_csv(read_file(dir / "run" / "prefetch-rhino.csv"));
  ASSERT_EQ(rows.size(), 2U);
  // Depth 0: one fetch3 per class the agent loads, which is every distinct Rhino class.
  EXPECT_EQ(rows[0].at("fetch3_calls"), std::to_string(rhino_classes.size()));
  EXPECT_LT(std::stoul(rows[1].at("fetch3_calls")), rhino_classes.size());
}

TEST(CapturePrefetch, ClasspathFromCpAndClasspathVariable) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java and Debian's rhino";
  TempDir dir;
  auto with_cp = run_perflab("capture prefetch --out " + (dir / "a").string() + " --name shell -- java -cp " +
                             kRhino + " org.mozilla.javascript.tools.shell.Main -e 'print(1)'");
  ASSERT_EQ(with_cp.status, 0) << with_cp.err;
  EXPECT_NE(read_file(dir / "a" / "shell.classpath").find(kRhino + "\n"), std::string::npos);
  auto from_env = run_perflab("capture prefetch --out " + (dir / "b").string() +
                                  " -- java org.mozilla.javascript.tools.shell.Main -e 'print(1)'",
                              {{"CLASSPATH", kRhino}});
  ASSERT_EQ(from_env.status, 0) << from_env.err;
  EXPECT_TRUE(fs::exists(dir / "b" / "main.classpath")) << from_env.out;
}

TEST(CapturePrefetch, NotAJvmIsRefusedAndNothingWritten) {
  TempDir dir;
  const fs::path out = dir / "out";
  auto r = run_perflab("capture prefetch --out " + out.string() + " -- git -cp x.jar Main");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("\"git\" is not a JVM"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CapturePrefetch, FailingJvmShowsTheEndOfItsStderr) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java and Debian's rhino";
  TempDir dir;
  fs::create_directory(dir / "out");
  auto r = run_perflab("capture prefetch --out " + (dir / "out").string() + " -- java -cp " + kRhino +
                       " org.mozilla.javascript.tools.shell.Main -e 'throw new Error(\"boom-42\")'");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("the JVM exited with status 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("boom-42"), std::string::npos) << r.err;
  EXPECT_TRUE(empty_or_missing(dir / "out")) << "the capture left files";
  EXPECT_TRUE(fs::exists(dir / "out"));  // a folder it did not make is left alone
}

// SIGINT or SIGTERM, to perflab alone or to its group, while the JVM runs: the JVM is stopped, perflab
// exits 130 or 143, and --out holds only what it held before (--force: it holds a file already).
class CapturePrefetchStopped : public AdoptsOrphans, public ::testing::WithParamInterface<StopSignal> {};

TEST_P(CapturePrefetchStopped, StopsTheJvmAndWritesNothing) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java and Debian's rhino";
  TempDir dir;
  const fs::path out = dir / "out";
  fs::create_directory(out);
  write_file(out / "keep.txt", "the user's");
  expect_signal_leaves_no_process(PERFLAB_BINARY,
                                  {"capture", "prefetch", "--out", out.string(), "--force", "--", "java",
                                   "-jar", kRhino, "-e", "java.lang.Thread.sleep(60000)"},
                                  "-Xlog:class+load", GetParam().signal, GetParam().to, dir / "err");
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(out)) left.push_back(entry.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"keep.txt"});
}
INSTANTIATE_TEST_SUITE_P(Signals, CapturePrefetchStopped, ::testing::ValuesIn(kStopSignals),
                         stop_signal_name);

TEST(CapturePrefetch, NoClasspathClassesIsRefused) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java and Debian's rhino";
  TempDir dir;
  // A classpath of one JAR the program never loads from: every class comes from the JDK.
  fs::create_directory(dir / "classes");
  write_file(dir / "classes" / "Hello.java",
             "public class Hello { public static void main(String[] a) { System.out.println(\"hi\"); } }");
  ASSERT_EQ(
      std::system(("javac -d " + (dir / "classes").string() + " " + (dir / "classes" / "Hello.java").string())
                      .c_str()),
      0);
  auto r = run_perflab("capture prefetch --out " + (dir / "out").string() + " -- java -cp " +
                       (dir / "classes").string() + ":" + kRhino + " Hello");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("is from a JAR of the classpath (1 JARs, 1 folders)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CapturePrefetch, MissingClasspathEntryIsRefused) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java (the JVM is checked first)";
  TempDir dir;
  auto r = run_perflab("capture prefetch --out " + (dir / "out").string() + " -- java -cp " +
                       (dir / "nowhere.jar").string() + " Main");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("-cp: classpath element \"" + (dir / "nowhere.jar").string() + "\""),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("does not exist, expected a JAR or a folder"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CapturePrefetch, NoMainClassIsRefused) {
  if (!have_java_and_rhino()) GTEST_SKIP() << "needs java (the JVM is checked first)";
  TempDir dir;
  auto r = run_perflab("capture prefetch --out " + (dir / "out").string() + " -- java -Xmx64m");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no main class"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
}  // namespace perflab::testing
