// `perflab validate`'s report (sim/validation.h) on synthetic pairs of tables: the figures and the verdict
// are what the definitions say, whatever engine produced the numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/validation.h"

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
}

TEST(Validation, SpearmanCountsRanksOnly) {
  EXPECT_DOUBLE_EQ(spearman_rho({1, 2, 3, 4}, {10, 20, 30, 1000}), 1.0);
  EXPECT_DOUBLE_EQ(spearman_rho({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_NEAR(spearman_rho({1, 2, 3}, {1, 1, 2}), std::sqrt(3.0) / 2, 1e-12);  // a tie: average ranks
  EXPECT_TRUE(std::isnan(spearman_rho({1, 2}, {3, 3})));
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
  EXPECT_DOUBLE_EQ(m.spearman, 1.0);
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
    if (!c.held) failed.push_back(c.name);
  }
  EXPECT_EQ(failed,
            (std::vector<std::string>{"mean abs ln(real/sim)", "max abs ln(real/sim)",
                                      "ratio prefetch_depth=500 / prefetch_depth=1: abs(real/sim - 1)"}));
  EXPECT_NE(validation_markdown(*report).find("**a criterion failed**"), std::string::npos);
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
  input.spec.ratios = {{"prefetch_depth=7", "prefetch_depth=1"}};
  auto unmatched = make_validation_report(input);
  ASSERT_FALSE(unmatched.ok());
  EXPECT_NE(unmatched.status().message().find("matches no point"), std::string::npos);
}

TEST(Validation, SummaryHasARowPerStudyWithItsVerdict) {
  auto agreeing = make_validation_report(synthetic({10, 5, 2}, {{10}, {5}, {2}}));
  auto far = make_validation_report(synthetic({10, 5, 2}, {{10}, {5}, {4}}));
  ASSERT_TRUE(agreeing.ok() && far.ok());
  std::string summary = validation_summary({{"prefetch", *agreeing, ""},
                                            {"pipe", *far, ""},
                                            {"share", std::nullopt, "share at k=3: no successful real run"}});
  EXPECT_NE(summary.find("| prefetch | 3 | duration_s | 0.0000 | 0.0000 | 2.000 / 2.000 | 1.000 | held |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("**failed**: mean abs ln(real/sim), max abs ln(real/sim)"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("**could not run**: share at k=3: no successful real run"), std::string::npos);
}

}  // namespace
}  // namespace perflab
