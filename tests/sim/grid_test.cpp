// The lazy grid: point i made from its index is the i-th point of cases × sweep (last axis fastest), the
// columns that vary and the points whose inputs differ are known without making every point, and a
// 10^7-point sweep loads, describes itself and runs its last run at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "sim/scenario/scenario.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

Scenario load(const std::string& text) {
  TempDir dir;
  write_file(dir / "s.toml", text);
  auto scenario = load_scenario(dir / "s.toml", {});
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  return std::move(scenario).value();
}

TEST(Grid, PointIIsTheIthOfCasesTimesTheSweepLastAxisFastest) {
  auto scenario = load(pingpong_scenario("g",
                                         "[sweep]\nrequests = [1, 2, 3]\nreply_size = [\"1KiB\", \"2KiB\"]\n"
                                         "[[case]]\nname = \"small\"\nrequest_size = \"10B\"\n"
                                         "[[case]]\nname = \"big\"\nrequest_size = \"1MiB\"\n"));
  ASSERT_EQ(scenario.grid.size(), 12U);
  const auto& columns = scenario.param_columns;
  auto label = [&](size_t p, const std::string& column) {
    return scenario.grid[p]
        .column_labels[std::find(columns.begin(), columns.end(), column) - columns.begin()];
  };
  size_t p = 0;
  for (const char* c : {"small", "big"}) {
    for (const char* requests : {"1", "2", "3"}) {
      for (const char* reply : {"1KiB", "2KiB"}) {
        EXPECT_EQ(label(p, "case"), c) << p;
        EXPECT_EQ(label(p, "requests"), requests) << p;
        EXPECT_EQ(label(p, "reply_size"), reply) << p;
        EXPECT_EQ(label(p, "request_size"), std::string(c) == "small" ? "10B" : "1MiB") << p;
        EXPECT_EQ(scenario.grid[p].params.integer("requests"), std::stoi(requests));
        ++p;
      }
    }
  }
  std::vector<std::string> varying;
  for (size_t c : scenario.grid.varying_columns()) varying.push_back(columns[c]);
  std::sort(varying.begin(), varying.end());
  EXPECT_EQ(varying, (std::vector<std::string>{"case", "reply_size", "request_size", "requests"}));
  // The points whose inputs would differ if a study read only reply_size: per case, each reply size.
  EXPECT_EQ(scenario.grid.representatives({"reply_size"}), (std::vector<size_t>{0, 1, 6, 7}));
  EXPECT_EQ(scenario.grid.representatives({"requests", "reply_size"}).size(), 12U);
}

// Three axes of 100, 100 and 1000 values: 10^7 points, never expanded.
std::string ten_million_points() {
  std::string requests, sizes, replies;
  for (int i = 1; i <= 100; ++i) requests += (i > 1 ? ", " : "") + std::to_string(i);
  for (int i = 1; i <= 100; ++i) sizes += (i > 1 ? ", \"" : "\"") + std::to_string(i) + "B\"";
  for (int i = 1; i <= 1000; ++i) replies += (i > 1 ? ", \"" : "\"") + std::to_string(i) + "B\"";
  return pingpong_scenario("big", "[sweep]\nrequests = [" + requests + "]\nrequest_size = [" + sizes +
                                      "]\nreply_size = [" + replies + "]\n");
}

TEST(Grid, ATenMillionPointSweepLoadsDescribesItselfAndRunsItsLastRunAtOnce) {
  TempDir dir;
  write_file(dir / "big.toml", ten_million_points());
  auto scenario = load_scenario(dir / "big.toml", {});
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  ASSERT_EQ(scenario->grid.size(), 10000000U);
  auto last = scenario->grid[9999999];
  EXPECT_EQ(last.params.integer("requests"), 100);
  EXPECT_EQ(last.params.real("reply_size"), 1000);

  auto described = run_perflab("describe " + (dir / "big.toml").string());
  EXPECT_EQ(described.status, 0) << described.err;
  EXPECT_NE(described.out.find("10000000 grid points x 1 seeds"), std::string::npos) << described.out;

  auto row = run_perflab("rows " + (dir / "big.toml").string() + " --tasks 9999999");
  EXPECT_EQ(row.status, 0) << row.err;
  EXPECT_EQ(std::count(row.out.begin(), row.out.end(), '\n'), 1) << row.out;

  // A shard with --out says how many runs it has before running them; Ctrl-C is not needed to see it
  // start: its first rows reach the journal (the CLI test of interruption is engine_test's).
  auto shard = run_perflab(
      "run " + (dir / "big.toml").string() +
      " --set 'sweep.reply_size=[\"1B\"]' --set 'sweep.request_size=[\"1B\"]' --shard 7/10 --out " +
      (dir / "shard").string() + " --format csv");
  EXPECT_EQ(shard.status, 0) << shard.err;
  EXPECT_NE(shard.err.find("perflab: big: 10 of the 100 runs (100 grid points x 1 seeds), shard 7/10"),
            std::string::npos)
      << shard.err;
}

}  // namespace
}  // namespace perflab::testing
