// `perflab validate`'s report (sim/gate/validation.h) on synthetic pairs of tables: the figures and the
// verdict are what the definitions say, whatever engine produced the numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "sim/gate/validation.h"
#include "sim/report/validation_report.h"
#include "sim/stats/median_interval.h"

namespace perflab {
namespace {

// Points prefetch_depth = 0, 1, 500 with these sim values and, per point, these real repetitions.
ValidationInput synthetic(const std::vector<double>& sim, const std::vector<std::vector<double>>& real) {
  ValidationInput input;
  input.scenario = "synthetic";
  input.column_names = {"prefetch_depth", "jar_cache"};
  input.metrics = {"duration_s"};
  input.spec.ratios = {{"prefetch_depth=0", "prefetch_depth=1"}, {"prefetch_depth=500", "prefetch_depth=1"}};
  const char* depths[] = {"0", "1", "500"};
  for (size_t p = 0; p < sim.size(); ++p) {
    ValidationPoint point;
    point.columns = point.labels = {depths[p], "cold"};
    point.sim = {sim[p]};
    point.real = {real[p]};
    input.points.push_back(point);
  }
  return input;
}

TEST(Validation, MedianIntervalOfFiveIsMinToMax) {
  auto m = median_interval({5, 1, 4, 2, 3});
  EXPECT_EQ(m.median, 3);
  EXPECT_EQ(m.low, 1);
  EXPECT_EQ(m.high, 5);
  // With 20 values the 95% interval narrows to the 6th and 15th order statistics.
  std::vector<double> twenty;
  for (int i = 1; i <= 20; ++i) twenty.push_back(i);
  auto n = median_interval(twenty);
  EXPECT_EQ(n.median, 10.5);
  EXPECT_EQ(n.low, 6);
  EXPECT_EQ(n.high, 15);
  // What the reports say the interval covers: [min, max] of 5 misses the median when all 5 fall on one
  // side (2 / 32); the 6th to 15th of 20 when 5 or fewer fall below it or above it.
  EXPECT_DOUBLE_EQ(median_interval_coverage(5), 1 - 2.0 / 32);
  EXPECT_NEAR(median_interval_coverage(20), 0.9586, 1e-4);
  EXPECT_GE(median_interval_coverage(15), 0.95);
}

TEST(Validation, AgreeingTablesMeetTheDefaultCriteria) {
  // Real is 2% slower everywhere: |ln| = ln 1.02 at every point, ratios unchanged.
  auto report = make_validation_report(synthetic(
      {10, 5, 2}, {{10.2, 10.1, 10.3, 10.2, 10.2}, {5.1, 5.1, 5.0, 5.2, 5.1}, {2.04, 2.04, 2, 2.1, 2.04}}));
  ASSERT_TRUE(report.ok()) << report.status().message();
  const MetricReport& m = report->metrics[0];
  EXPECT_NEAR(m.points[0].log_error, std::log(1.02), 1e-12);
  EXPECT_DOUBLE_EQ(m.points[0].real_low, 10.1);
  EXPECT_DOUBLE_EQ(m.points[0].real_high, 10.3);
  EXPECT_NEAR(m.mean_abs_log, std::log(1.02), 1e-12);
  ASSERT_EQ(m.ratios.size(), 2u);
  EXPECT_DOUBLE_EQ(m.ratios[0].sim, 2.0);
  EXPECT_NEAR(m.ratios[0].difference(), 0, 1e-12);
  EXPECT_DOUBLE_EQ(m.rank.tau, 1.0);
  EXPECT_EQ(m.rank.testable, 3);
  EXPECT_EQ(m.criteria.back().verdict, Verdict::kHeld);
  EXPECT_TRUE(report->held());
}

TEST(Validation, OnePointFarOffFailsTheMaximumAndTheRatio) {
  // The depth-500 point is 20% slower in real: max |ln| = ln 1.2 > 0.10, mean = ln(1.2) / 3 > 0.05,
  // depth 500 / depth 1 moves by 20%.
  auto report = make_validation_report(synthetic({10, 5, 2}, {{10}, {5}, {2.4}}));
  ASSERT_TRUE(report.ok());
  const MetricReport& m = report->metrics[0];
  EXPECT_NEAR(m.max_abs_log, std::log(1.2), 1e-12);
  EXPECT_NEAR(m.ratios[1].difference(), 0.2, 1e-12);
  EXPECT_FALSE(report->held());
  std::vector<std::string> failed;
  for (const auto& c : m.criteria) {
    if (c.verdict == Verdict::kFailed) failed.push_back(c.name);
  }
  EXPECT_EQ(failed,
            (std::vector<std::string>{"mean abs ln(real/sim)", "max abs ln(real/sim)",
                                      "ratio prefetch_depth=500 / prefetch_depth=1: abs(real/sim - 1)"}));
  EXPECT_NE(
      validation_markdown(*report).find(
          "Verdict: **failed**: mean abs ln(real/sim) (duration_s, every point (3)); max abs ln(real/sim) "
          "(duration_s, every point (3)); ratio prefetch_depth=500 / prefetch_depth=1: abs(real/sim - 1) "
          "(duration_s, the pair)"),
      std::string::npos)
      << validation_markdown(*report);
}

TEST(Validation, CsvHasOneRowPerPointAndMetric) {
  auto report = make_validation_report(synthetic({10, 5, 2}, {{10}, {5}, {2}}));
  ASSERT_TRUE(report.ok());
  std::string csv = validation_csv(*report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "prefetch_depth,jar_cache,metric,sim,real_median,real_low,real_high,log_error");
  EXPECT_NE(csv.find("\n500,cold,duration_s,2,2,2,2,0\n"), std::string::npos);
}

TEST(Validation, BadInputIsAnError) {
  auto no_real = make_validation_report(synthetic({10, 5, 2}, {{10}, {}, {2}}));
  ASSERT_FALSE(no_real.ok());
  EXPECT_NE(no_real.status().message().find("no successful real run"), std::string::npos);
  auto input = synthetic({10, 5, 2}, {{10}, {5}, {2}});
  input.spec.ratios = {{"prefetch_dept=0", "prefetch_depth=1"}};
  auto misspelt = make_validation_report(input);
  ASSERT_FALSE(misspelt.ok());
  EXPECT_NE(
      misspelt.status().message().find("expected COLUMN=VALUE with COLUMN one of prefetch_depth, jar_cache"),
      std::string::npos)
      << misspelt.status().message();
}

// A narrowed grid (--set 'sweep.prefetch_depth=[0,2,7,100]') cannot form depth 0 / depth 1: that ratio is
// reported "not judged", saying why, and the rest of the report is still made and judged.
TEST(Validation, ARatioTheGridCannotFormIsNotJudged) {
  auto input = synthetic({10, 5, 2}, {{10}, {5}, {2}});
  input.spec.ratios = {{"prefetch_depth=7", "prefetch_depth=1"}, {"prefetch_depth=0", "prefetch_depth=1"}};
  auto report = make_validation_report(input);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const auto& criteria = report->metrics[0].criteria;
  auto first_ratio = std::find_if(criteria.begin(), criteria.end(),
                                  [](const Criterion& c) { return c.name.rfind("ratio", 0) == 0; });
  ASSERT_NE(first_ratio, criteria.end());
  EXPECT_EQ(first_ratio->verdict, Verdict::kNotJudged);
  EXPECT_EQ(first_ratio->detail, "prefetch_depth=7 is not a point of this grid (prefetch_depth: 0, 1, 500)");
  EXPECT_EQ(std::next(first_ratio)->verdict, Verdict::kHeld);
  EXPECT_TRUE(report->held());
  std::string md = validation_markdown(*report);
  EXPECT_NE(
      md.find(
          "| ratio prefetch_depth=7 / prefetch_depth=1: abs(real/sim - 1) |  | – | <= 0.05 | not judged | "
          "prefetch_depth=7 is not a point of this grid"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("Verdict: held (every judged criterion; 1 not judged)"), std::string::npos) << md;
}

// Selectors that match points which differ in another column too form no pair: not judged, never dropped.
TEST(Validation, ARatioWithoutPairsIsNotJudged) {
  ValidationInput input;
  input.scenario = "diagonal";
  input.column_names = {"loop", "segment_size"};
  input.metrics = {"duration_s"};
  for (auto [loop, size] : {std::pair{"eager", "32KiB"}, {"coalesced", "128KiB"}}) {
    ValidationPoint point;
    point.columns = point.labels = {loop, size};
    point.sim = {1};
    point.real = {{1}};
    input.points.push_back(point);
  }
  input.spec.ratios = {{"loop=eager", "loop=coalesced"}};
  auto report = make_validation_report(input);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const Criterion& ratio = report->metrics[0].criteria[2];
  EXPECT_EQ(ratio.verdict, Verdict::kNotJudged);
  EXPECT_EQ(ratio.detail, "no two points of this grid differ only in loop=eager / loop=coalesced");
}

// share's grid: every ratio row names its group (the case, whose k and n follow from it, and the segment
// size), so its eight eager / coalesced rows are told apart; counts print as integers.
TEST(Validation, RatioRowsNameTheirGroupAndCountsAreIntegers) {
  ValidationInput input;
  input.scenario = "share-like";
  input.column_names = {"case", "k", "n", "segment_size", "loop", "file"};
  input.metrics = {"loop_calls"};
  for (auto [c, k, n] : {std::tuple{"3-of-10", "3", "10"}, {"30-of-40", "30", "40"}}) {
    for (const char* size : {"32KiB", "128KiB"}) {
      for (auto [loop, calls] : {std::pair{"eager", 15600.0}, {"coalesced", 7740.0}}) {
        ValidationPoint point;
        point.columns = point.labels = {c, k, n, size, loop, ""};
        point.sim = {calls};
        point.real = {{calls, calls, calls, calls, calls}};
        input.points.push_back(point);
      }
    }
  }
  input.spec.ratios = {{"loop=eager", "loop=coalesced"}};
  auto report = make_validation_report(input);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->metrics[0].ratios.size(), 4u);
  EXPECT_EQ(report->metrics[0].ratios[0].group, "case=3-of-10, segment_size=32KiB");
  EXPECT_EQ(report->metrics[0].ratios[3].group, "case=30-of-40, segment_size=128KiB");
  std::string md = validation_markdown(*report);
  EXPECT_NE(md.find("| 15600 | 15600 | [15600, 15600] |"), std::string::npos) << md;
  EXPECT_EQ(md.find("e+04"), std::string::npos) << md;
  EXPECT_EQ(md.find("file = ,"), std::string::npos) << md;
  EXPECT_NE(md.find("Left at their defaults: file."), std::string::npos) << md;
  EXPECT_NE(
      md.find(
          "| ratio loop=eager / loop=coalesced: abs(real/sim - 1) | case=30-of-40, segment_size=128KiB |"),
      std::string::npos)
      << md;
}

// Two points make one pair: the rank rule cannot judge an order there, and says so (dispatcher --quick).
TEST(Validation, TheRankRuleOverTooFewPairsIsNotJudged) {
  ValidationInput input = synthetic({10, 5}, {{10}, {5}});
  input.spec.ratios = {};
  auto report = make_validation_report(input);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const Criterion& rank = report->metrics[0].criteria.back();
  EXPECT_EQ(rank.name, "rank order: Kendall tau-b");
  EXPECT_EQ(rank.verdict, Verdict::kNotJudged);
  EXPECT_EQ(rank.where, "1 of 1 pairs testable");
  EXPECT_TRUE(std::isnan(rank.value));
}

// Strategy x size: a ratio of strategies pairs the points of each size; `at` keeps the one size asked for.
TEST(Validation, ARatioAtAPointKeepsOnlyThatPair) {
  ValidationInput input;
  input.scenario = "grid";
  input.column_names = {"strategy", "max_requests"};
  input.metrics = {"throughput_rps"};
  for (auto [strategy, size, sim, real] : {std::tuple{"scan", "64", 100.0, 100.0},
                                           {"counter", "64", 100.0, 100.0},
                                           {"scan", "640", 50.0, 40.0},
                                           {"counter", "640", 150.0, 160.0}}) {
    ValidationPoint point;
    point.columns = point.labels = {strategy, size};
    point.sim = {sim};
    point.real = {{real}};
    input.points.push_back(point);
  }
  input.spec.ratios = {{"strategy=counter", "strategy=scan"}};
  auto both = make_validation_report(input);
  ASSERT_TRUE(both.ok()) << both.status().message();
  EXPECT_EQ(both->metrics[0].ratios.size(), 2u);
  input.spec.ratios = {{"strategy=counter", "strategy=scan", "max_requests=640"}};
  auto at = make_validation_report(input);
  ASSERT_TRUE(at.ok()) << at.status().message();
  ASSERT_EQ(at->metrics[0].ratios.size(), 1u);
  EXPECT_DOUBLE_EQ(at->metrics[0].ratios[0].sim, 3.0);
  EXPECT_DOUBLE_EQ(at->metrics[0].ratios[0].real, 4.0);
  EXPECT_EQ(at->metrics[0].ratios[0].pair, "strategy=counter / strategy=scan at max_requests=640");
  input.spec.ratios = {{"strategy=counter", "strategy=scan", "max_requests=6400"}};
  auto nowhere = make_validation_report(input);
  ASSERT_TRUE(nowhere.ok());
  EXPECT_EQ(nowhere->metrics[0].criteria[2].verdict, Verdict::kNotJudged);
  EXPECT_EQ(nowhere->metrics[0].criteria[2].detail,
            "max_requests=6400 is not a point of this grid (max_requests: 64, 640)");
}

// The summary hides nothing: every criterion of every run with its bound, value and verdict; a failed
// criterion named; a run that could not run said; its title says which studies it covers.
TEST(Validation, SummaryHasEveryCriterionOfEveryRun) {
  auto agreeing = make_validation_report(synthetic({10, 5, 2}, {{10}, {5}, {2}}));
  auto far = make_validation_report(synthetic({10, 5, 2}, {{10}, {5}, {4}}));
  ASSERT_TRUE(agreeing.ok() && far.ok());
  std::string summary = validation_summary({{"prefetch", *agreeing, ""},
                                            {"pipe", *far, ""},
                                            {"share", std::nullopt, "share at k=3: no successful real run"}},
                                           "prefetch, pipe, share");
  EXPECT_EQ(summary.rfind("### perflab validate: prefetch, pipe, share\n", 0), 0u) << summary;
  EXPECT_NE(summary.find(
                "| prefetch | duration_s | 3 | mean abs ln(real/sim) | every point (3) | 0.0000 | <= 0.05 | "
                "held |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find(
                "| prefetch | duration_s | 3 | ratio prefetch_depth=500 / prefetch_depth=1: abs(real/sim - "
                "1) | the pair | 0.0000 | <= 0.05 | held | sim 0.4, real 0.4 (+0.0%) |"),
            std::string::npos)
      << summary;
  EXPECT_NE(
      summary.find("| pipe | duration_s | 3 | max abs ln(real/sim) | every point (3) | 0.6931 | <= 0.1 | "
                   "**failed** |"),
      std::string::npos)
      << summary;
  EXPECT_NE(summary.find("- pipe: **failed**: mean abs ln(real/sim)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("- prefetch: held (every criterion)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("- share: **could not run**: share at k=3: no successful real run"),
            std::string::npos);
}

}  // namespace
}  // namespace perflab
