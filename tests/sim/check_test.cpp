// The regression gate: the comparison rules on hand-made tables (an exact count moved by one, a simulated
// time moved outside its interval, a claim below its bound, a missing or malformed results file), and
// `perflab check` end to end on the committed prefetch results, as they are and perturbed.
#include "sim/check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "sim/results_reader.h"
#include "tests/sim/cli_runner.h"

namespace perflab {
namespace {
namespace fs = std::filesystem;
using testing::run_perflab;
using testing::TempDir;

// A two-point sim scenario of a study with one exact and one timed metric and one claim.
struct Fixture {
  Study study;
  Scenario scenario;
  Fixture() {
    study.name = "checked";
    study.metrics = {{"count", "a deterministic count", true}, {"time_s", "a simulated time"}};
    study.claims = [](const RunTable& table) {
      auto a = table.values(0, "time_s");
      auto b = table.values(1, "time_s");
      double ratio = a.empty() || b.empty() ? NAN : b[0] / a[0];
      return std::vector<Claim>{{"time at x=2 / x=1", ratio, 1.5, INFINITY}};
    };
    scenario.name = "checked-scenario";
    scenario.study = &study;
    scenario.seed = 1;
    scenario.seeds = 5;
    scenario.param_columns = {"x"};
    scenario.grid.resize(2);
    scenario.grid[0].column_values = scenario.grid[0].column_labels = {"1"};
    scenario.grid[1].column_values = scenario.grid[1].column_labels = {"2"};
  }
  // Seeds 1..5 of both points: count = 10·x, time = x + small seed noise (times `scale` at point 1).
  RunTable table(double count_shift = 0, double time_scale = 1) const {
    RunTable t;
    t.scenario = &scenario;
    for (size_t p = 0; p < 2; ++p) {
      for (int r = 0; r < 5; ++r) {
        RunRow row;
        row.point = p;
        row.replication = r;
        row.seed = 1 + r;
        row.outcome = Outcome::kOk;
        double x = static_cast<double>(p + 1);
        row.metrics["count"] = 10 * x + (p == 1 && r == 2 ? count_shift : 0);
        row.metrics["time_s"] = (x + 0.01 * r) * (p == 1 ? time_scale : 1);
        t.rows.push_back(row);
      }
    }
    return t;
  }
};

TEST(Check, IdenticalRunsPass) {
  Fixture f;
  auto result = compare_runs(f.table(), f.table());
  EXPECT_TRUE(result.failures.empty());
  EXPECT_EQ(result.exact_values, 10U);
  EXPECT_EQ(result.interval_tests, 2U);
  EXPECT_EQ(result.claims, 1U);
}

TEST(Check, ACountChangedByOneFailsNamingMetricPointAndSeed) {
  Fixture f;
  auto result = compare_runs(f.table(), f.table(1));
  ASSERT_EQ(result.failures.size(), 1U);
  EXPECT_EQ(result.failures[0].metric, "count");
  EXPECT_EQ(result.failures[0].point, "x=2, seed 3");
  EXPECT_EQ(result.failures[0].committed, "20");
  EXPECT_EQ(result.failures[0].now, "21");
}

TEST(Check, ATimeMovedOutsideItsIntervalFailsButNoiseDoesNot) {
  Fixture f;
  auto moved = compare_runs(f.table(), f.table(0, 1.2));
  ASSERT_EQ(moved.failures.size(), 1U);
  EXPECT_EQ(moved.failures[0].metric, "time_s");
  EXPECT_EQ(moved.failures[0].point, "x=2");
  auto within_noise = compare_runs(f.table(), f.table(0, 1.0005));
  EXPECT_TRUE(within_noise.failures.empty());
}

TEST(Check, AClaimBelowItsBoundFails) {
  Fixture f;
  auto result = compare_runs(f.table(), f.table(0, 0.7));  // time ratio 2 -> 1.4 < 1.5
  bool claim_failed = false;
  for (const auto& v : result.failures) claim_failed |= v.metric == "claim" && v.point == "time at x=2 / x=1";
  EXPECT_TRUE(claim_failed);
}

TEST(Check, WelchSeesAShiftTheSpreadCannotExplain) {
  EXPECT_TRUE(welch_same_mean({1, 2, 3, 4}, {1.5, 2.5, 3.5}, 0.001));
  EXPECT_FALSE(welch_same_mean({1, 1.1, 0.9, 1.0}, {5, 5.1, 4.9}, 0.001));
  EXPECT_TRUE(welch_same_mean({7, 7, 7}, {7, 7}, 0.001));  // deterministic: equal
  EXPECT_FALSE(welch_same_mean({7, 7, 7}, {7.001}, 0.001));
}

TEST(Check, MissingOrMalformedResultsAreErrorsNotPasses) {
  Fixture f;
  TempDir dir;
  auto missing = read_results(f.scenario, dir / "nope.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no committed results"), std::string::npos);

  testing::write_file(dir / "short.csv", "x,seed,count,time_s,error\n1,1,10\n");
  auto short_row = read_results(f.scenario, dir / "short.csv");
  ASSERT_FALSE(short_row.ok());
  EXPECT_NE(short_row.status().message().find("short.csv:2: 3 fields, expected 5"), std::string::npos)
      << short_row.status().message();

  testing::write_file(dir / "nan.csv", "x,seed,count,time_s,error\n1,1,ten,1.0,\n");
  auto not_number = read_results(f.scenario, dir / "nan.csv");
  ASSERT_FALSE(not_number.ok());
  EXPECT_NE(not_number.status().message().find("nan.csv:2: count = \"ten\" is not a number"),
            std::string::npos);

  testing::write_file(dir / "columns.csv", "x,seed,count,error\n");
  auto no_column = read_results(f.scenario, dir / "columns.csv");
  ASSERT_FALSE(no_column.ok());
  EXPECT_NE(no_column.status().message().find("no column \"time_s\""), std::string::npos);
}

// End to end on the shipped prefetch study: the committed results pass; a copy with one RPC count moved
// by one fails with a table naming it, exit 1; a missing results file is an input error (exit 2).
TEST(Check, PerflabCheckPassesOnCommittedResultsAndFailsOnAPerturbedCopy) {
  auto ok = run_perflab("check prefetch --quick");
  ASSERT_EQ(ok.status, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("prefetch: ok"), std::string::npos) << ok.out;

  TempDir results;
  fs::copy(PERFLAB_RESULTS_DIR "/prefetch", results / "prefetch", fs::copy_options::recursive);
  fs::path csv = results / "prefetch" / "prefetch-jgit-clone.csv";
  auto rows = testing::parse_csv(testing::read_file(csv));
  ASSERT_FALSE(rows.empty());
  std::string text = testing::read_file(csv);
  // The second data row's rpcs: rewrite the file with that one value moved by one.
  std::string header = text.substr(0, text.find('\n'));
  auto fields = split_csv_line(header);
  size_t rpcs_column = std::find(fields.begin(), fields.end(), "rpcs") - fields.begin();
  size_t start = text.find('\n') + 1;
  start = text.find('\n', start) + 1;  // second data row
  size_t end = text.find('\n', start);
  auto row = split_csv_line(text.substr(start, end - start));
  long moved = std::stol(row[rpcs_column]) + 1;
  // Rebuild the row with csv quoting where needed.
  std::string rebuilt;
  for (size_t i = 0; i < row.size(); ++i) {
    std::string field = i == rpcs_column ? std::to_string(moved) : row[i];
    bool quote = field.find_first_of(",\"\n") != std::string::npos;
    rebuilt += (i ? "," : "") + (quote ? "\"" + field + "\"" : field);
  }
  testing::write_file(csv, text.substr(0, start) + rebuilt + text.substr(end));
  auto failed = run_perflab("check prefetch --quick", {{"PERFLAB_RESULTS", results.path().string()}});
  EXPECT_EQ(failed.status, 1) << failed.out << failed.err;
  EXPECT_NE(failed.out.find("| rpcs |"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("FAIL"), std::string::npos);

  fs::remove(csv);
  auto missing = run_perflab("check prefetch --quick", {{"PERFLAB_RESULTS", results.path().string()}});
  EXPECT_EQ(missing.status, 2) << missing.out << missing.err;
  EXPECT_NE(missing.err.find("no committed results"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace perflab
