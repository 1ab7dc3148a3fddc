// The -Xlog:class+load trace reader and the workload it gives: the committed JGit clone log, hand-written
// logs with every kind of line, malformed lines reported with their line number.
#include "models/prefetch/class_load_trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "models/prefetch/workload.h"
#include "tests/prefetch/real_jgit.h"
#include "tests/prefetch/zip_writer.h"

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

Names class_names(const std::vector<TracedClassLoad>& loads) {
  Names names;
  for (const TracedClassLoad& load : loads) names.push_back(load.class_name);
  return names;
}

std::string parse_error(const std::string& text) {
  Result<std::vector<TracedClassLoad>> loads = parse_class_load_trace(text, "trace.log");
  EXPECT_FALSE(loads.ok()) << "parsed unexpectedly";
  return loads.ok() ? "" : loads.status().message();
}

TEST(PrefetchClassLoadTrace, ReadsTheCommittedJGitCloneLog) {
  Result<std::vector<TracedClassLoad>> loads = read_class_load_trace(testing::trace_path());
  ASSERT_TRUE(loads.ok()) << loads.status().message();
  ASSERT_FALSE(loads->empty());
  EXPECT_EQ(loads->front().class_name, "java.lang.Object");
  std::set<std::string> jars;
  std::size_t from_jars = 0;
  for (const TracedClassLoad& load : *loads) {
    if (!load.from_jar()) continue;
    if (from_jars++ == 0) {
      EXPECT_EQ(load.class_name, "org.eclipse.jgit.pgm.Main");
      EXPECT_EQ(load.jar_path, "/usr/share/java/org.eclipse.jgit.pgm.jar");
    }
    jars.insert(load.jar_path);
  }
  std::printf("[ trace    ] %zu named classes, %zu loaded from %zu JARs\n", loads->size(), from_jars,
              jars.size());
  EXPECT_EQ(from_jars, 704u);
}

TEST(PrefetchClassLoadTrace, KeepsNamedClassesWithTheJarOfThoseFromJarFiles) {
  const std::string log =
      "[0.010s][info][class,load] java.lang.Object source: shared objects file\n"
      "[0.011s][info][class,load] java.lang.String source: jrt:/java.base\n"
      "[0.020s][info][class,load] a.Main source: file:/opt/app/a.jar\n"
      "[0.021s][debug][class,load] klass: 0x0000000800c01000 super: 0x0000000800001000 loader: [app]\n"
      "[0.022s][info][class,load] a.Main$$Lambda$14/0x0000000800c0a000 source: a.Main\n"
      "[0.023s][info][class,load] jdk.internal.reflect.GeneratedMethodAccessor1 source: __JVM_DefineClass__\n"
      "[0.024s][info][class,load] b.Dir source: file:/opt/app/classes/\n"
      "[0.025s][info][gc,heap   ] Heap region size: 1M\n"
      "[0.026s][info][class,load  ] b.With$Space source: file:///opt/my%20app/b.jar\r\n"
      "\n"
      "[2024-01-01T00:00:00.000+0000][0.027s][1234][info][class,load] c.C source: file:/c.jar\n";
  Result<std::vector<TracedClassLoad>> loads = parse_class_load_trace(log, "trace.log");
  ASSERT_TRUE(loads.ok()) << loads.status().message();
  // Hidden classes (the lambda) and other lines are skipped; JDK, generated and directory classes are kept
  // without a JAR: they are no workload, but they take part in rebuilding the initiation order.
  EXPECT_EQ(class_names(*loads),
            (Names{"java.lang.Object", "java.lang.String", "a.Main",
                   "jdk.internal.reflect.GeneratedMethodAccessor1", "b.Dir", "b.With$Space", "c.C"}));
  std::vector<std::string> jars;
  for (const TracedClassLoad& load : *loads) jars.push_back(load.jar_path);
  EXPECT_EQ(jars, (Names{"", "", "/opt/app/a.jar", "", "", "/opt/my app/b.jar", "/c.jar"}));
  EXPECT_EQ((*loads)[2].line, 3);
  EXPECT_EQ((*loads)[6].line, 11);
}

TEST(PrefetchClassLoadTrace, MalformedLinesAreErrorsWithTheirLineNumber) {
  const std::string good = "[0.01s][info][class,load] a.A source: file:/a.jar\n";
  EXPECT_EQ(parse_error(good + good + "garbage\n").rfind("trace.log:3: ", 0), 0u);
  EXPECT_NE(parse_error(good + "[0.02s][info][class,load] a.B\n")
                .find("trace.log:2: expected '<class name> source:"),
            std::string::npos);
  EXPECT_NE(parse_error("[0.02s][info][class,load]  source: file:/a.jar\n").find("trace.log:1:"),
            std::string::npos);
  EXPECT_NE(parse_error(good + "[0.02s][info][class,load] a b source: file:/a.jar\n").find("trace.log:2:"),
            std::string::npos);
  EXPECT_NE(
      parse_error("[0.02s][info][class,load a.B source: file:/a.jar\n").find("trace.log:1: unterminated"),
      std::string::npos);
  EXPECT_NE(parse_error("[0.02s] a.B source: file:/a.jar\n").find("trace.log:1: expected the decorations"),
            std::string::npos);
  EXPECT_NE(parse_error(good + good + good + "[0.02s][info][class,load] a.B source: file:/a%2.jar\n")
                .find("trace.log:4: broken %-escape"),
            std::string::npos);
}

TEST(PrefetchClassLoadTrace, MissingFileIsAnError) {
  Result<std::vector<TracedClassLoad>> loads = read_class_load_trace("/nonexistent/perflab/trace.log");
  ASSERT_FALSE(loads.ok());
  EXPECT_NE(loads.status().message().find("/nonexistent/perflab/trace.log"), std::string::npos);
}

TEST(PrefetchWorkload, TheCommittedTraceIsServedByTheCommittedClasspath) {
  Result<const testing::RealJGit*> jgit = testing::load_real_j_git();
  ASSERT_TRUE(jgit.ok()) << jgit.status().message();
  const Workload& workload = (*jgit)->workload;
  EXPECT_EQ(workload.dropped, 0u);
  EXPECT_EQ(workload.classes.size(), 704u);
  EXPECT_EQ((*jgit)->logged_workload.classes.size(), 704u);
  for (const std::string& name : workload.classes) {
    EXPECT_TRUE((*jgit)->graph->find(name).has_value()) << name << " is not on the classpath";
  }
  std::printf("[ workload ] %zu classes from %zu of the %d classpath JARs (%zu classes on the classpath)\n",
              workload.classes.size(), workload.jars_used.size(), (*jgit)->classpath.jar_count(),
              (*jgit)->graph->class_count());
}

TEST(PrefetchWorkload, KeepsClasspathJarsInOrderOnceAndMatchesLinkedPaths) {
  testing::TempDirectory directory;
  const std::string real = directory.file("lib-1.0.jar");
  const std::string link = directory.file("lib.jar");
  ASSERT_TRUE(testing::write_zip(real, {{"l/L.class", "x"}}));
  std::filesystem::create_symlink(real, link);

  const std::vector<TracedClassLoad> trace = {{"l.First", link, 1},
                                              {"o.Other", "/elsewhere/other.jar", 2},
                                              {"l.Second", real, 3},
                                              {"l.First", real, 4}};
  const Workload workload = make_workload(trace, {"/first/on/classpath.jar", real});
  EXPECT_EQ(workload.classes, (Names{"l.First", "l.Second"}));
  EXPECT_EQ(workload.jars_used, (std::vector<int>{1}));
  EXPECT_EQ(workload.dropped, 1u);
}

// cglib defines its generated classes in the protection domain of the JAR it enhances, so the JVM logs them
// with that JAR as their source; the JAR has no class file for them, and they are left out.
TEST(PrefetchWorkload, ClassesLoggedFromAJarThatDoesNotHoldThemAreLeftOut) {
  testing::TempDirectory directory;
  const std::string jar = directory.file("guice.jar");
  ASSERT_TRUE(testing::write_zip(jar, {{"p/Service.class", "class bytes"}}));
  const std::vector<TracedClassLoad> trace = {{"p.Service", jar, 1},
                                              {"p.Service$$EnhancerByGuice$$1a2b", jar, 2}};
  Workload workload = make_workload(trace, {jar});
  ASSERT_EQ(workload.classes.size(), 2u);
  Result<Classpath> classpath = Classpath::Open({jar});
  ASSERT_TRUE(classpath.ok()) << classpath.status().message();
  leave_out_classes_not_in(workload, *classpath);
  EXPECT_EQ(workload.classes, (Names{"p.Service"}));
  EXPECT_EQ(workload.not_in_jars, 1u);
  EXPECT_EQ(workload.dropped, 0u);
}

}  // namespace
}  // namespace perflab::prefetch
