// `perflab run --shard I/N` and `perflab merge`: shards joined give the unsharded run's files byte for
// byte (sim and micro engine, failed rows included); mixed, missing, repeated or unfinished shards are
// refused with a message naming the file.
#include <gtest/gtest.h>

#include <set>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

namespace fs = std::filesystem;

// Runs `scenario` whole into dir/whole and as `count` shards merged into dir/merged; compares every output
// file (the .meta run records differ by date and command). `status`: what the whole run, each shard and
// the merge exit with (1 when every shard holds a failed row, else 0).
void expect_merge_equals_whole(const TempDir& dir, const fs::path& scenario, const std::string& extra,
                               int count, int status) {
  auto whole = run_perflab("run " + scenario.string() + extra + " --out " + (dir / "whole").string());
  ASSERT_EQ(whole.status, status) << whole.err;
  std::string shards;
  for (int i = 1; i <= count; ++i) {
    fs::path out = dir / ("shard" + std::to_string(i));
    auto r = run_perflab("run " + scenario.string() + extra + " --shard " + std::to_string(i) + "/" +
                         std::to_string(count) + " --jobs 2 --out " + out.string());
    ASSERT_EQ(r.status, status) << r.err;
    shards += " " + out.string();
  }
  auto merged = run_perflab("merge" + shards + " --out " + (dir / "merged").string());
  ASSERT_EQ(merged.status, whole.status) << merged.err;
  size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(dir / "whole")) {
    fs::path twin = dir / "merged" / entry.path().filename();
    ASSERT_TRUE(fs::exists(twin)) << twin;
    if (entry.path().extension() == ".meta") continue;  // the run record: its own date and command
    EXPECT_EQ(read_file(entry.path()), read_file(twin)) << entry.path().filename();
    ++compared;
  }
  EXPECT_GE(compared, 3U);
}

TEST(Shard, MergedShardsEqualTheUnshardedRunByteForByte) {
  TempDir dir;
  write_file(dir / "s.toml",
             pingpong_scenario("s", "[sweep]\nrequests = [1, 2, 3, 4]\n", "uniform(1ms, 9ms)"));
  expect_merge_equals_whole(dir, dir / "s.toml", " --seeds 5", 3, 0);
}

TEST(Shard, FailedRowsSurviveTheMerge) {
  TempDir dir;
  write_file(dir / "s.toml",
             pingpong_scenario("s", "[sweep]\nrequests = [1, 2]\nfault = [\"none\", \"abort\"]\n"));
  expect_merge_equals_whole(dir, dir / "s.toml", " --seeds 2", 2, 1);  // each shard has an abort row
  EXPECT_NE(read_file(dir / "merged" / "s.csv").find("crashed"), std::string::npos);
}

// Micro-engine times differ from run to run, so the merge is compared with the shards' own rows.
TEST(Shard, MicroEngineRowsAndRepetitionsSurviveTheMerge) {
  TempDir dir;
  fs::path scenario = fs::path(PERFLAB_SCENARIOS) / "dispatcher" / "adversarial.toml";
  std::string narrow =
      " --set 'sweep.n=[100]' --set 'sweep.strategy=[\"scan\",\"indexed\"]' --set scenario.repetitions=2 "
      "--set scenario.name='\"s\"'";
  for (const char* shard : {"1", "2"}) {
    auto r = run_perflab("run " + scenario.string() + narrow + " --shard " + shard + "/2 --out " +
                         (dir / shard).string());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  auto merged = run_perflab("merge " + (dir / "1").string() + " " + (dir / "2").string() + " --out " +
                            (dir / "m").string());
  ASSERT_EQ(merged.status, 0) << merged.err;
  for (const char* file : {"s.csv", "s.repetitions.csv"}) {
    auto lines = [](const std::string& text) {
      std::multiset<std::string> set;
      for (size_t start = text.find('\n') + 1, end; (end = text.find('\n', start)) != std::string::npos;
           start = end + 1)
        set.insert(text.substr(start, end - start));
      return set;
    };
    auto expected = lines(read_file(dir / "1" / file));
    auto second = lines(read_file(dir / "2" / file));
    expected.insert(second.begin(), second.end());
    EXPECT_EQ(lines(read_file(dir / "m" / file)), expected) << file;
    EXPECT_GE(expected.size(), 6U) << file;
  }
}

TEST(Shard, MergeRefusesShardsOfDifferentScenarios) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[sweep]\nrequests = [1, 2]\n"));
  auto a = run_perflab("run " + (dir / "s.toml").string() + " --shard 1/2 --out " + (dir / "a").string());
  auto b = run_perflab("run " + (dir / "s.toml").string() +
                       " --set params.reply_size='\"2KiB\"' --shard 2/2 --out " + (dir / "b").string());
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  auto merged = run_perflab("merge " + (dir / "a").string() + " " + (dir / "b").string() + " --out " +
                            (dir / "m").string());
  EXPECT_EQ(merged.status, 2);
  EXPECT_NE(merged.err.find("different scenario"), std::string::npos) << merged.err;
  EXPECT_NE(merged.err.find("s.shard"), std::string::npos) << merged.err;
}

TEST(Shard, MergeRefusesMissingAndRepeatedShards) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[sweep]\nrequests = [1, 2, 3]\n"));
  for (const char* shard : {"1", "2"}) {
    auto r = run_perflab("run " + (dir / "s.toml").string() + " --shard " + shard + "/3 --out " +
                         (dir / shard).string());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  auto missing = run_perflab("merge " + (dir / "1").string() + " " + (dir / "2").string() + " --out " +
                             (dir / "m").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("shard 3/3 is missing"), std::string::npos) << missing.err;
  auto twice = run_perflab("merge " + (dir / "1").string() + " " + (dir / "1").string() + " --out " +
                           (dir / "m").string());
  EXPECT_EQ(twice.status, 2);
  EXPECT_NE(twice.err.find("also in"), std::string::npos) << twice.err;
  auto empty = run_perflab("merge " + dir.path().string() + " --out " + (dir / "m").string());
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.err.find("no shard"), std::string::npos) << empty.err;
}

TEST(Shard, BadShardFlagsAreRefused) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", ""));
  for (const char* flag : {"0/3", "4/3", "1/0", "a/b", "1/3x", "2"}) {
    auto r = run_perflab("run " + (dir / "s.toml").string() + " --shard " + flag + " --out " +
                         (dir / "o").string());
    EXPECT_EQ(r.status, 2) << flag;
    EXPECT_NE(r.err.find("expected I/N"), std::string::npos) << flag << ": " << r.err;
  }
  auto no_out = run_perflab("run " + (dir / "s.toml").string() + " --shard 1/2");
  EXPECT_EQ(no_out.status, 2);
  EXPECT_NE(no_out.err.find("needs --out"), std::string::npos) << no_out.err;
}

}  // namespace
}  // namespace perflab::testing
