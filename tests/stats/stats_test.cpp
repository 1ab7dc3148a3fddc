// perflab::stats against table values, a hand-computed sample, and synthetic data with known coefficients.
#include "sim/stats/stats.h"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/sampling/rng.h"

namespace perflab::stats {
namespace {

// Two-sided 95% critical values from any t table.
TEST(StatsStudentT, MatchesTableValues) {
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 9), 2.2622, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.0423, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 9), 1.8331, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.025, 9), -2.2622, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.5, 4), 0.0, 1e-12);
  EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.95996, 1e-4);  // tends to the normal quantile
}

TEST(StatsStudentT, InvalidArgumentsGiveNaN) {
  EXPECT_TRUE(std::isnan(student_t_quantile(0, 5)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1, 5)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1.5, 5)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0.975, 0)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0.975, -3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(std::nan(""), 3)));
}

// mean 5, sum of squared deviations 32, so s = sqrt(32 / 7); t(0.975, 7) = 2.364624.
TEST(StatsSummary, KnownSample) {
  const Summary s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(32.0 / 7));
  const double half_width = 2.364624 * std::sqrt(32.0 / 7) / std::sqrt(8.0);
  EXPECT_NEAR(s.ci95_low, 5 - half_width, 1e-5);
  EXPECT_NEAR(s.ci95_high, 5 + half_width, 1e-5);
  EXPECT_EQ(s.min, 2);
  EXPECT_EQ(s.max, 9);
  EXPECT_EQ(s.median, 4.5);
}

TEST(StatsSummary, SingleValueHasAZeroWidthInterval) {
  const Summary s = summarize({3.5});
  EXPECT_EQ(s.n, 1u);
  EXPECT_EQ(s.mean, 3.5);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.ci95_low, 3.5);
  EXPECT_EQ(s.ci95_high, 3.5);
  EXPECT_EQ(s.median, 3.5);
}

TEST(StatsSummary, EmptySampleIsNaN) {
  const Summary s = summarize({});
  EXPECT_EQ(s.n, 0u);
  for (double field : {s.mean, s.stddev, s.ci95_low, s.ci95_high, s.min, s.max, s.median}) {
    EXPECT_TRUE(std::isnan(field));
  }
}

// Across many samples of a known distribution the 95% interval covers the true mean ~95% of the time.
TEST(StatsSummary, IntervalCoversTheTrueMean95PercentOfTheTime) {
  Rng rng(17);
  constexpr int kTrials = 4000;
  int covered = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> xs(10);
    for (double& x : xs) x = rng.uniform01();
    const Summary s = summarize(xs);
    covered += s.ci95_low <= 0.5 && 0.5 <= s.ci95_high;
  }
  EXPECT_NEAR(covered / static_cast<double>(kTrials), 0.95, 5 * std::sqrt(0.95 * 0.05 / kTrials));
}

TEST(StatsQuantile, InterpolatesLinearlyBetweenOrderStatistics) {
  EXPECT_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_EQ(quantile({4, 1, 3, 2}, 0), 1);
  EXPECT_EQ(quantile({4, 1, 3, 2}, 1), 4);
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.25), 1.75);
  std::vector<double> hundred_and_one;
  for (int i = 101; i >= 1; --i) hundred_and_one.push_back(i);
  EXPECT_DOUBLE_EQ(quantile(hundred_and_one, 0.99), 100);
  EXPECT_DOUBLE_EQ(quantile(hundred_and_one, 0.995), 100.5);
  EXPECT_EQ(quantile({7}, 0.9), 7);
}

TEST(StatsQuantile, InvalidInputsGiveNaN) {
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
  EXPECT_TRUE(std::isnan(quantile({1, 2}, -0.1)));
  EXPECT_TRUE(std::isnan(quantile({1, 2}, 1.1)));
}

Fit fit_ok(const Result<Fit>& fit) {
  EXPECT_TRUE(fit.ok()) << fit.status().message();
  const double nan = std::nan("");
  return fit.ok() ? *fit : Fit{nan, nan, nan, nan, nan};
}

// The slope's interval against a hand computation (numpy polyfit, t(0.975, 3) = 3.1824463).
TEST(StatsFit, SlopeIntervalIsStudentTOnTheStandardError) {
  const Fit fit = fit_ok(fit_linear({1, 2, 3, 4, 5}, {2.1, 3.9, 6.2, 7.8, 10.1}));
  EXPECT_NEAR(fit.b, 1.99, 1e-12);
  EXPECT_NEAR(fit.b_ci95_low, 1.7999392904005085, 1e-9);
  EXPECT_NEAR(fit.b_ci95_high, 2.1800607095994917, 1e-9);
  const Fit two = fit_ok(fit_linear({1, 2}, {1, 3}));
  EXPECT_TRUE(std::isnan(two.b_ci95_low) && std::isnan(two.b_ci95_high));
  const Fit power = fit_ok(fit_power({1, 2, 4, 8}, {1, 4, 16, 64}));  // exact: interval of width 0
  EXPECT_NEAR(power.b_ci95_low, 2, 1e-9);
  EXPECT_NEAR(power.b_ci95_high, 2, 1e-9);
}

TEST(StatsFit, LinearExact) {
  const Fit fit = fit_ok(fit_linear({0, 1, 2, 3, 4}, {3, 5, 7, 9, 11}));
  EXPECT_NEAR(fit.a, 3, 1e-12);
  EXPECT_NEAR(fit.b, 2, 1e-12);
  EXPECT_NEAR(fit.r2, 1, 1e-12);
}

TEST(StatsFit, LinearOnAConstantIsFlatAndPerfect) {
  const Fit fit = fit_ok(fit_linear({1, 2, 3}, {4, 4, 4}));
  EXPECT_NEAR(fit.a, 4, 1e-12);
  EXPECT_NEAR(fit.b, 0, 1e-12);
  EXPECT_EQ(fit.r2, 1);
}

// y = 3 + 2x + e, e uniform in [-0.5, 0.5] (sd 1/sqrt 12). Standard errors of the least-squares
// coefficients: se(b) = sd / sqrt(Sxx), se(a) = sd sqrt(1/n + mean(x)^2 / Sxx).
TEST(StatsFit, LinearNoisyRecoversTheCoefficients) {
  Rng rng(3);
  std::vector<double> x, y;
  for (int i = 0; i < 1000; ++i) {
    x.push_back(i / 100.0);
    y.push_back(3 + 2 * x.back() + (rng.uniform01() - 0.5));
  }
  double mean_x = 0, sxx = 0;
  for (double v : x) mean_x += v / x.size();
  for (double v : x) sxx += (v - mean_x) * (v - mean_x);
  const double sd = 1 / std::sqrt(12.0);
  const Fit fit = fit_ok(fit_linear(x, y));
  EXPECT_NEAR(fit.b, 2, 5 * sd / std::sqrt(sxx));
  EXPECT_NEAR(fit.a, 3, 5 * sd * std::sqrt(1.0 / x.size() + mean_x * mean_x / sxx));
  EXPECT_GT(fit.r2, 0.99);
  EXPECT_LT(fit.r2, 1);
}

TEST(StatsFit, LogExact) {
  std::vector<double> x = {1, 2, 5, 10, 100, 500}, y;
  for (double v : x) y.push_back(1 + 0.5 * std::log(v));
  const Fit fit = fit_ok(fit_log(x, y));
  EXPECT_NEAR(fit.a, 1, 1e-12);
  EXPECT_NEAR(fit.b, 0.5, 1e-12);
  EXPECT_NEAR(fit.r2, 1, 1e-12);
}

TEST(StatsFit, PowerExact) {
  std::vector<double> x = {1, 2, 4, 8, 16, 1000}, y;
  for (double v : x) y.push_back(2 * std::pow(v, 1.5));
  const Fit fit = fit_ok(fit_power(x, y));
  EXPECT_NEAR(fit.a, 2, 1e-9);
  EXPECT_NEAR(fit.b, 1.5, 1e-12);
  EXPECT_NEAR(fit.r2, 1, 1e-12);
}

// The quadratic dispatcher: time = 0.01 n^2 with 10% multiplicative noise; the exponent comes out ~2.
TEST(StatsFit, PowerNoisyRecoversTheExponent) {
  Rng rng(8);
  std::vector<double> x, y;
  for (int n = 10; n <= 10000; n += 10) {
    x.push_back(n);
    y.push_back(0.01 * n * n * (1 + 0.2 * (rng.uniform01() - 0.5)));
  }
  const Fit fit = fit_ok(fit_power(x, y));
  EXPECT_NEAR(fit.b, 2, 0.01);
  EXPECT_NEAR(fit.a, 0.01, 0.001);
  EXPECT_GT(fit.r2, 0.99);
}

std::string fit_error(const Result<Fit>& fit) {
  EXPECT_FALSE(fit.ok()) << "a = " << fit->a << ", b = " << fit->b;
  return fit.status().message();
}

TEST(StatsFit, LogAndPowerRejectNonPositiveX) {
  EXPECT_EQ(fit_error(fit_log({0, 1, 2, 3}, {1, 2, 3, 4})),
            "fit_log: x[0] = 0, expected x > 0 (the fit takes its logarithm)");
  EXPECT_EQ(fit_error(fit_power({1, 2, -3}, {1, 2, 3})),
            "fit_power: x[2] = -3, expected x > 0 (the fit takes its logarithm)");
  EXPECT_EQ(fit_error(fit_power({1, 2, 3}, {1, 0, 3})),
            "fit_power: y[1] = 0, expected y > 0 (the fit takes its logarithm)");
}

TEST(StatsFit, RejectsDegenerateInput) {
  EXPECT_EQ(fit_error(fit_linear({1, 2, 3}, {1, 2})),
            "fit_linear: x has 3 values but y has 2, expected the same number");
  EXPECT_EQ(fit_error(fit_linear({1}, {1})), "fit_linear: got 1 points, expected at least 2");
  EXPECT_EQ(fit_error(fit_linear({}, {})), "fit_linear: got 0 points, expected at least 2");
  EXPECT_EQ(fit_error(fit_linear({2, 2, 2}, {1, 2, 3})),
            "fit_linear: all x values are equal (2), expected at least two different x");
  EXPECT_EQ(fit_error(fit_log({5, 5}, {1, 2})),
            "fit_log: all x values are equal (5), expected at least two different x");
  EXPECT_NE(fit_error(fit_linear({1, std::nan("")}, {1, 2})).find("is not finite"), std::string::npos);
}

}  // namespace
}  // namespace perflab::stats
