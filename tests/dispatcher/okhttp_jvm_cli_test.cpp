// The okhttp-jvm strategy through the perflab binary: a row on the real OkHttp 3.13.1 when the JVM and the
// jars are there, one JVM serving all of a run's okhttp-jvm points; without them (PERFLAB_JAVA /
// PERFLAB_OKHTTP_JAR pointed elsewhere) its rows fail naming the missing package while the other
// strategies run; a JVM that dies before replying, or stops answering, fails its rows saying so.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenarios/dispatcher/jvm/okhttp_jvm.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

namespace fs = std::filesystem;

// Small one-host-backlog points (the strategies at each n), CSV rows in grid order.
std::vector<CsvRow> run_points(const TempDir& dir, const std::map<std::string, std::string>& env, int& status,
                               const std::string& strategies, const std::string& sizes) {
  const fs::path scenario = fs::path(PERFLAB_SCENARIOS) / "dispatcher" / "adversarial.toml";
  auto r = run_perflab("run " + scenario.string() + " --set 'sweep.n=" + sizes +
                           "' --set 'sweep.workload=[\"one_host_backlog\"]' "
                           "--set 'sweep.strategy=" +
                           strategies + "' --set scenario.repetitions=3 --set scenario.name='\"s\"' --out " +
                           dir.path().string(),
                       env);
  status = r.status;
  return parse_csv(read_file(dir / "s.csv"));
}

// One small point per strategy (scan and okhttp-jvm), CSV rows by strategy.
std::map<std::string, CsvRow> run_backlog(const TempDir& dir, const std::map<std::string, std::string>& env,
                                          int& status) {
  std::map<std::string, CsvRow> rows;
  for (auto& row : run_points(dir, env, status, R"(["scan","okhttp-jvm"])", "[100]"))
    rows[row["strategy"]] = row;
  return rows;
}

// A stand-in for java: a shell script with `body` (made executable).
fs::path fake_java(const TempDir& dir, const std::string& body) {
  const fs::path script = dir / "java";
  write_file(script, "#!/bin/sh\n" + body + "\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

TEST(OkHttpJvmCli, TimesTheRealLibrary) {
  if (Status status = okhttp_jvm::available(); !status.ok()) GTEST_SKIP() << status.message();
  TempDir dir;
  int status = -1;
  auto rows = run_backlog(dir, {}, status);
  ASSERT_EQ(status, 0);
  ASSERT_EQ(rows.count("okhttp-jvm"), 1u);
  EXPECT_EQ(rows["okhttp-jvm"]["error"], "");
  EXPECT_GT(std::stod(rows["okhttp-jvm"]["seconds"]), 0);
  EXPECT_EQ(rows["okhttp-jvm"]["ops_under_lock"], "0");
}

TEST(OkHttpJvmCli, OneJvmServesEveryPointOfARun) {
  if (Status status = okhttp_jvm::available(); !status.ok()) GTEST_SKIP() << status.message();
  TempDir dir;
  const fs::path started = dir / "started";
  // the machine's java, logging each start
  const fs::path java = fake_java(dir, "echo started >> " + started.string() + "\nexec java \"$@\"");
  int status = -1;
  auto rows =
      run_points(dir, {{"PERFLAB_JAVA", java.string()}}, status, R"(["okhttp-jvm"])", "[100, 320, 1000]");
  ASSERT_EQ(status, 0);
  ASSERT_EQ(rows.size(), 3u);
  for (auto& row : rows) {
    EXPECT_EQ(row["error"], "");
    EXPECT_GT(std::stod(row["seconds"]), 0);
  }
  EXPECT_EQ(read_file(started), "started\n");
}

TEST(OkHttpJvmCli, AJvmThatStopsAnsweringFailsItsRowsSayingSo) {
  if (Status status = okhttp_jvm::available(); !status.ok()) GTEST_SKIP() << status.message();
  TempDir dir;
  const fs::path java = fake_java(dir, "echo 'ok listening'");  // says it listens, then exits
  int status = -1;
  auto rows =
      run_points(dir, {{"PERFLAB_JAVA", java.string()}}, status, R"(["scan","okhttp-jvm"])", "[100, 320]");
  EXPECT_EQ(status, 1);
  ASSERT_EQ(rows.size(), 4u);
  for (auto& row : rows) {
    if (row["strategy"] == "scan") {
      EXPECT_EQ(row["error"], "");
    } else {
      EXPECT_NE(row["error"].find("the okhttp-jvm JVM does not answer"), std::string::npos) << row["error"];
    }
  }
}

TEST(OkHttpJvmCli, WithoutTheJarItsRowsFailNamingThePackageAndTheOthersRun) {
  TempDir dir;
  int status = -1;
  auto rows = run_backlog(dir, {{"PERFLAB_OKHTTP_JAR", "/nonexistent/okhttp.jar"}}, status);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(rows["scan"]["error"], "");
  EXPECT_NE(rows["okhttp-jvm"]["error"].find("libokhttp-java (/nonexistent/okhttp.jar not found)"),
            std::string::npos)
      << rows["okhttp-jvm"]["error"];
}

TEST(OkHttpJvmCli, WithoutJavaItsRowsFailNamingTheRuntime) {
  TempDir dir;
  int status = -1;
  auto rows = run_backlog(dir, {{"PERFLAB_JAVA", "/nonexistent/java"}}, status);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(rows["scan"]["error"], "");
  EXPECT_NE(rows["okhttp-jvm"]["error"].find("needs a Java runtime"), std::string::npos)
      << rows["okhttp-jvm"]["error"];
}

TEST(OkHttpJvmCli, AJvmThatDiesIsAFailedRow) {
  if (Status status = okhttp_jvm::available(); !status.ok()) GTEST_SKIP() << status.message();
  TempDir dir;
  int status = -1;
  auto rows = run_backlog(dir, {{"PERFLAB_JAVA", "/bin/false"}}, status);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(rows["scan"]["error"], "");
  EXPECT_NE(rows["okhttp-jvm"]["error"].find("exited with status 1 before replying"), std::string::npos)
      << rows["okhttp-jvm"]["error"];
}

}  // namespace
}  // namespace perflab::testing
