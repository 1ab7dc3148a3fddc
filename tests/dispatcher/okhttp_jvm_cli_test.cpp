// The okhttp-jvm strategy through the perflab binary: a row on the real OkHttp 3.13.1 when the JVM and the
// jars are there; without them (PERFLAB_JAVA / PERFLAB_OKHTTP_JAR pointed elsewhere) its rows fail naming
// the missing package while the other strategies run; a JVM that dies before replying is a failed row.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "scenarios/dispatcher/jvm/okhttp_jvm.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

namespace fs = std::filesystem;

// One small point per strategy (scan and okhttp-jvm), CSV rows by strategy.
std::map<std::string, CsvRow> run_backlog(const TempDir& dir, const std::map<std::string, std::string>& env,
                                          int& status) {
  const fs::path scenario = fs::path(PERFLAB_SCENARIOS) / "dispatcher" / "adversarial.toml";
  auto r = run_perflab("run " + scenario.string() +
                           " --set 'sweep.n=[100]' --set 'sweep.workload=[\"one_host_backlog\"]' "
                           "--set 'sweep.strategy=[\"scan\",\"okhttp-jvm\"]' --set scenario.repetitions=3 "
                           "--set scenario.name='\"s\"' --out " +
                           dir.path().string(),
                       env);
  status = r.status;
  std::map<std::string, CsvRow> rows;
  for (auto& row : parse_csv(read_file(dir / "s.csv"))) rows[row["strategy"]] = row;
  return rows;
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
