// The share study through the perflab binary: the headline's loop counts on the simulated LAN, the same
// CSV whatever --jobs, the timeline's loop spans, and bad parameters refused before anything runs.
#include <gtest/gtest.h>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

const std::string kHeadline = std::string(PERFLAB_SCENARIOS) + "/share/download-12mib.toml";

TEST(ShareStudy, HeadlineLoopCountsAndTimes) {
  TempDir dir;
  auto r =
      run_perflab("run " + kHeadline + " --seeds 2 --set 'sweep.loop=[\"eager\",\"coalesced\",\"readv\"]' " +
                  "--set 'sweep.cpu=[\"tahoe-1.9\"]' --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "share-download-12mib.csv"));
  ASSERT_EQ(rows.size(), 6U);
  for (const auto& row : rows) {
    const std::string& loop = row.at("loop");
    EXPECT_EQ(row.at("loop_calls"), loop == "eager" ? "1155" : "576") << loop;
    EXPECT_EQ(row.at("wasted_loops"), loop == "eager" ? "579" : "0") << loop;
    EXPECT_EQ(row.at("reads"), "867");
    EXPECT_EQ(row.at("remote_calls"), loop == "readv" ? "288" : "867");
  }
  // Removing the redundant passes saves ~0.2 s of Tahoe 1.9's CPU and nothing else changes.
  double eager = std::stod(rows[0].at("duration_s"));
  double coalesced = std::stod(rows[2].at("duration_s"));
  EXPECT_NEAR(eager - coalesced, 0.2, 0.01);
  EXPECT_NEAR(coalesced, 4.0, 0.05);
}

TEST(ShareStudy, SameCsvWhateverJobs) {
  TempDir one;
  TempDir two;
  std::string args =
      "run " + kHeadline + " --seeds 2 --set 'sweep.cpu=[\"measured\"]' --set params.file_size='\"1MiB\"'";
  ASSERT_EQ(run_perflab(args + " --jobs 1 --out " + one.path().string()).status, 0);
  ASSERT_EQ(run_perflab(args + " --jobs 2 --out " + two.path().string()).status, 0);
  EXPECT_EQ(read_file(one / "share-download-12mib.csv"), read_file(two / "share-download-12mib.csv"));
}

TEST(ShareStudy, TimelineHasLoopsPassesReadsAndSegments) {
  TempDir dir;
  auto r = run_perflab("run " + kHeadline +
                       " --seeds 1 --set 'sweep.loop=[\"eager\"]' --set 'sweep.cpu=[\"tahoe-1.9\"]' " +
                       "--set params.file_size='\"1MiB\"' --timeline " + (dir / "t.json").string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::string json = read_file(dir / "t.json");
  for (const char* name :
       {"\"wasted loop\"", "\"get_satisfaction\"", "\"desire\"", "\"segment 7\"", "\"read 1\""}) {
    EXPECT_NE(json.find(name), std::string::npos) << name;
  }
}

TEST(ShareStudy, BadParametersAreRefusedBeforeAnythingRuns) {
  struct Case {
    const char* set;
    const char* message;
  };
  for (Case c : {Case{"--set params.k=11", "k <= n"}, Case{"--set params.k=0", "k >= 1"},
                 Case{"--set params.segment_size='\"0B\"'", "segment_size is 0"},
                 Case{"--set params.file_size='\"0B\"'", "file_size is 0"}}) {
    TempDir dir;
    auto r = run_perflab("run " + kHeadline + " --seeds 1 " + c.set + " --out " + dir.path().string());
    EXPECT_EQ(r.status, 2) << c.set << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.set << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "share-download-12mib.csv")) << c.set;
  }
}

}  // namespace
}  // namespace perflab::testing
