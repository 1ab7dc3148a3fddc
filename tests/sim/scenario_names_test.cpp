// One way to name a scenario: every name `perflab list` prints works in run, check and describe (compare:
// check_test.cpp), from the test's folder, not scenarios/; --case narrows a scenario's [[case]]s, which
// describe and list show; --jobs above the cores warns and is capped.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

const std::string kOneRun = " --seeds 1 --set 'sweep.reply_size=[\"1KiB\"]' --format csv";

TEST(ScenarioNames, EveryNameListPrintsRuns) {
  auto list = run_perflab("list");
  ASSERT_EQ(list.status, 0) << list.err;
  ASSERT_NE(list.out.find("pingpong/wan.toml"), std::string::npos) << list.out;
  ASSERT_NE(fs::current_path(), fs::path(PERFLAB_SCENARIOS));
  for (const char* name : {"pingpong/wan.toml", "pingpong/wan"}) {
    auto run = run_perflab(std::string("run ") + name + kOneRun);
    EXPECT_EQ(run.status, 0) << name << ": " << run.err;
    EXPECT_NE(run.out.find("1024"), std::string::npos) << run.out;
  }
  auto missing = run_perflab("run pingpong/nope" + kOneRun);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("pingpong/nope: no such scenario file, expected a .toml file or a shipped "
                             "scenario's name as `perflab list` prints it, e.g. prefetch/jgit-clone"),
            std::string::npos)
      << missing.err;
}

TEST(ScenarioNames, DescribeTakesAScenarioAndListsItsCases) {
  for (const char* name : {"pipe/git-clone", "pipe/git-clone.toml"}) {
    auto described = run_perflab(std::string("describe ") + name);
    EXPECT_EQ(described.status, 0) << described.err;
    EXPECT_NE(described.out.find("Scenario pipe-git-clone"), std::string::npos) << described.out;
    EXPECT_NE(described.out.find("cases (run one with --case NAME): jdk, nuprocess-2.0.1, nuprocess-2.0.2, "
                                 "linux, jdk-64k"),
              std::string::npos)
        << described.out;
    EXPECT_NE(described.out.find("Study pipe:"), std::string::npos) << described.out;
  }
  auto list = run_perflab("list");
  EXPECT_NE(list.out.find("cases (--case): jdk, nuprocess-2.0.1, nuprocess-2.0.2, linux, jdk-64k"),
            std::string::npos)
      << list.out;
  auto unknown = run_perflab("describe nosuch");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown study \"nosuch\""), std::string::npos) << unknown.err;
}

TEST(ScenarioNames, CheckTakesAHeadlineScenarioByName) {
  auto not_headline = run_perflab("check pingpong/wan");
  EXPECT_EQ(not_headline.status, 2);
  EXPECT_NE(not_headline.err.find("wan.toml: not a headline scenario"), std::string::npos)
      << not_headline.err;
  auto nothing = run_perflab("check pingpong/nope");
  EXPECT_EQ(nothing.status, 2);
  EXPECT_NE(nothing.err.find("pingpong/nope: no such scenario file"), std::string::npos) << nothing.err;
  EXPECT_NE(nothing.err.find("unknown study \"pingpong/nope\""), std::string::npos) << nothing.err;
}

const std::string kPipeCases = "run pipe/git-clone --seeds 1 --set 'sweep.mechanism=[\"none\"]' --format csv";

TEST(Cases, CaseNarrowsAScenarioToTheNamedCases) {
  auto two = run_perflab(kPipeCases + " --case linux --case jdk");
  ASSERT_EQ(two.status, 0) << two.err;
  auto rows = parse_csv(two.out);
  ASSERT_EQ(rows.size(), 2U) << two.out;
  EXPECT_EQ(rows[0].at("case"), "jdk") << "file order, whatever the order of --case";
  EXPECT_EQ(rows[1].at("case"), "linux");

  auto unknown = run_perflab(kPipeCases + " --case nope");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("perflab: error: --case nope: "), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("git-clone.toml has no such case, expected one of: jdk, nuprocess-2.0.1, "
                             "nuprocess-2.0.2, linux, jdk-64k"),
            std::string::npos)
      << unknown.err;
  auto none = run_perflab("run pingpong/wan --case x" + kOneRun);
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("wan.toml has no [[case]] tables"), std::string::npos) << none.err;
}

TEST(Cases, OneCaseMakesATimelinePossible) {
  TempDir dir;
  auto timeline = run_perflab(kPipeCases + " --case jdk --timeline " + (dir / "out" / "t.json").string());
  EXPECT_EQ(timeline.status, 0) << timeline.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "t.json"));
}

TEST(Jobs, AboveTheCoresWarnsAndIsCapped) {
  unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  auto many = run_perflab("run pingpong/wan --jobs 1000" + kOneRun);
  EXPECT_EQ(many.status, 0) << many.err;
  EXPECT_NE(
      many.err.find("perflab: warning: --jobs 1000 is more than the " + std::to_string(cores) + " cores"),
      std::string::npos)
      << many.err;
  EXPECT_NE(many.err.find("running " + std::to_string(4 * cores) + " at a time (at most 4 per core)"),
            std::string::npos)
      << many.err;
  auto help = run_perflab("run --help");
  EXPECT_NE(help.out.find("at most 4 per core"), std::string::npos) << help.out;
  auto fine = run_perflab("run pingpong/wan --jobs 1" + kOneRun);
  EXPECT_EQ(fine.err.find("warning"), std::string::npos) << fine.err;
}

}  // namespace
}  // namespace perflab::testing
