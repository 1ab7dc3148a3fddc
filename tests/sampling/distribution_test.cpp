// Distribution: each kind sampled 200,000 times from a fixed seed and compared with its closed form.
// Tolerances are 5 standard errors: for the mean, sd / sqrt(n) from the sample itself; for a quantile
// x_p, the share of samples below x_p must be p within 5 sqrt(p (1 - p) / n) (a binomial count, so the
// check needs no density). Closed forms are computed here with Boost.Math, independently of the library.
#include "sim/sampling/distribution.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/normal.hpp>

namespace perflab {
namespace {

constexpr int kSamples = 200'000;

Distribution parse_ok(const std::string& spec, Quantity quantity = Quantity::kDuration) {
  Result<Distribution> d = Distribution::parse(spec, quantity, ".");
  EXPECT_TRUE(d.ok()) << spec << " -> " << d.status().message();
  return d.ok() ? *d : Distribution::constant(-1, quantity);
}

std::vector<double> draw(const Distribution& d, uint64_t seed = 2024) {
  Rng rng(seed);
  std::vector<double> xs(kSamples);
  for (double& x : xs) x = d.sample(rng);
  return xs;
}

void expect_mean(const std::vector<double>& xs, double expected) {
  double sum = 0, squares = 0;
  for (double x : xs) sum += x;
  const double mean = sum / xs.size();
  for (double x : xs) squares += (x - mean) * (x - mean);
  const double standard_error = std::sqrt(squares / (xs.size() - 1) / xs.size());
  EXPECT_NEAR(mean, expected, 5 * standard_error);
}

void expect_quantile(const std::vector<double>& xs, double p, double x_p) {
  const double below = std::count_if(xs.begin(), xs.end(), [&](double x) { return x < x_p; });
  EXPECT_NEAR(below / xs.size(), p, 5 * std::sqrt(p * (1 - p) / xs.size()))
      << "quantile " << p << " = " << x_p;
}

void expect_non_negative(const std::vector<double>& xs) {
  EXPECT_GE(*std::min_element(xs.begin(), xs.end()), 0.0);
}

const boost::math::normal kStandardNormal;

TEST(SamplingDistribution, Constant) {
  const Distribution d = parse_ok("constant(20ms)");
  EXPECT_EQ(d.spec(), "constant(20 ms)");
  EXPECT_EQ(d.mean(), 0.02);
  for (double x : draw(d)) ASSERT_EQ(x, 0.02);
}

TEST(SamplingDistribution, BareValueIsConstant) {
  EXPECT_EQ(parse_ok("20ms").spec(), "constant(20 ms)");
  EXPECT_EQ(parse_ok(" 0 ").spec(), "constant(0 s)");
  EXPECT_EQ(parse_ok("64 KiB", Quantity::kSize).mean(), 65536.0);
  Rng rng(1);
  EXPECT_EQ(parse_ok("100MBps", Quantity::kRate).sample(rng), 1e8);
}

TEST(SamplingDistribution, Uniform) {
  const Distribution d = parse_ok("uniform(10ms, 250ms)");
  EXPECT_EQ(d.spec(), "uniform(10 ms, 250 ms)");
  EXPECT_DOUBLE_EQ(d.mean(), 0.13);
  const std::vector<double> xs = draw(d);
  EXPECT_GE(*std::min_element(xs.begin(), xs.end()), 0.01);
  EXPECT_LT(*std::max_element(xs.begin(), xs.end()), 0.25);
  expect_mean(xs, 0.13);
  expect_quantile(xs, 0.5, 0.13);
  expect_quantile(xs, 0.9, 0.01 + 0.9 * 0.24);
}

TEST(SamplingDistribution, UniformWithEqualBoundsIsConstant) {
  for (double x : draw(parse_ok("uniform(5ms, 5ms)"))) ASSERT_EQ(x, 0.005);
}

// normal(10ms, 20ms) loses 31% of its mass below 0: truncation moves the mean from 10 ms to ~20.2 ms.
TEST(SamplingDistribution, NormalIsTruncatedAtZero) {
  const double mu = 0.010, sigma = 0.020;
  const Distribution d = parse_ok("normal(10ms, 20ms)");
  EXPECT_EQ(d.spec(), "normal(10 ms, 20 ms)");
  const double kept = boost::math::cdf(kStandardNormal, mu / sigma);
  const double truncated_mean = mu + sigma * boost::math::pdf(kStandardNormal, mu / sigma) / kept;
  EXPECT_NEAR(d.mean(), truncated_mean, 1e-12);
  EXPECT_NEAR(truncated_mean, 0.02018, 1e-5);

  const std::vector<double> xs = draw(d);
  expect_non_negative(xs);
  expect_mean(xs, truncated_mean);
  const auto truncated_quantile = [&](double p) {
    return mu + sigma * boost::math::quantile(kStandardNormal, (1 - kept) + p * kept);
  };
  expect_quantile(xs, 0.5, truncated_quantile(0.5));
  expect_quantile(xs, 0.9, truncated_quantile(0.9));
  expect_quantile(xs, 0.1, truncated_quantile(0.1));
}

TEST(SamplingDistribution, NormalFarFromZeroIsTheUsualNormal) {
  const Distribution d = parse_ok("normal(100ms, 10ms)");
  EXPECT_NEAR(d.mean(), 0.1, 1e-12);
  const std::vector<double> xs = draw(d);
  expect_mean(xs, 0.1);
  expect_quantile(xs, 0.5, 0.1);
  expect_quantile(xs, 0.9, 0.1 + 0.01 * boost::math::quantile(kStandardNormal, 0.9));
}

TEST(SamplingDistribution, NormalWithZeroMeanIsHalfNormal) {
  const Distribution d = parse_ok("normal(0, 1s)");
  EXPECT_NEAR(d.mean(), std::sqrt(2 / M_PI), 1e-12);
  const std::vector<double> xs = draw(d);
  expect_non_negative(xs);
  expect_mean(xs, std::sqrt(2 / M_PI));
  expect_quantile(xs, 0.5, boost::math::quantile(kStandardNormal, 0.75));
}

TEST(SamplingDistribution, LogNormal) {
  const double median = 0.020, sigma = 0.5;
  const Distribution d = parse_ok("lognormal(20ms, 0.5)");
  EXPECT_EQ(d.spec(), "lognormal(20 ms, 0.5)");
  EXPECT_NEAR(d.mean(), median * std::exp(sigma * sigma / 2), 1e-15);
  const std::vector<double> xs = draw(d);
  expect_non_negative(xs);
  expect_mean(xs, median * std::exp(sigma * sigma / 2));
  expect_quantile(xs, 0.5, median);
  expect_quantile(xs, 0.9, median * std::exp(sigma * boost::math::quantile(kStandardNormal, 0.9)));
}

TEST(SamplingDistribution, Exponential) {
  const Distribution d = parse_ok("exponential(50ms)");
  EXPECT_EQ(d.spec(), "exponential(50 ms)");
  EXPECT_EQ(d.mean(), 0.05);
  const std::vector<double> xs = draw(d);
  expect_non_negative(xs);
  expect_mean(xs, 0.05);
  expect_quantile(xs, 0.5, 0.05 * std::log(2.0));
  expect_quantile(xs, 0.9, -0.05 * std::log(0.1));
}

// shape 3 > 2, so the variance (and the standard error of the mean) exists.
TEST(SamplingDistribution, Pareto) {
  const double scale = 0.010, shape = 3;
  const Distribution d = parse_ok("pareto(10ms, 3)");
  EXPECT_EQ(d.spec(), "pareto(10 ms, 3)");
  EXPECT_DOUBLE_EQ(d.mean(), shape * scale / (shape - 1));
  const std::vector<double> xs = draw(d);
  EXPECT_GE(*std::min_element(xs.begin(), xs.end()), scale);
  expect_mean(xs, 0.015);
  expect_quantile(xs, 0.5, scale * std::pow(0.5, -1 / shape));
  expect_quantile(xs, 0.9, scale * std::pow(0.1, -1 / shape));
}

TEST(SamplingDistribution, ParetoWithoutAMeanSaysInfinity) {
  EXPECT_TRUE(std::isinf(parse_ok("pareto(10ms, 1)").mean()));
  EXPECT_TRUE(std::isinf(parse_ok("pareto(10ms, 0.5)").mean()));
}

TEST(SamplingDistribution, SizesAndPlainNumbers) {
  const Distribution size = parse_ok("uniform(4 KiB, 64KiB)", Quantity::kSize);
  EXPECT_EQ(size.spec(), "uniform(4 KiB, 64 KiB)");
  EXPECT_EQ(size.mean(), 34 * 1024.0);
  const Distribution count = parse_ok("exponential(3)", Quantity::kNumber);
  EXPECT_EQ(count.spec(), "exponential(3)");
  expect_mean(draw(count), 3);
}

TEST(SamplingDistribution, SameSeedSameSamplesAndCopiesShareState) {
  const Distribution d = parse_ok("lognormal(20ms, 1)");
  const Distribution copy = d;
  EXPECT_EQ(draw(d, 77), draw(copy, 77));
  EXPECT_NE(draw(d, 77), draw(d, 78));
}

TEST(SamplingDistribution, CanonicalSpecParsesBackToTheSameDistribution) {
  for (const char* spec : {"constant(20ms)", "uniform(0ms,250ms)", "normal(10ms, 20ms)",
                           "lognormal(1.5s, 0.25)", "exponential(2e-3 s)", "pareto(1us, 2.5)", "7ms"}) {
    const Distribution d = parse_ok(spec);
    const Distribution again = parse_ok(d.spec());
    EXPECT_EQ(again.spec(), d.spec());
    EXPECT_EQ(draw(again, 5), draw(d, 5)) << spec;
  }
}

struct BadSpec {
  const char* spec;
  const char* message_part;
};

// Each malformed spec is refused with a message that quotes it and says what was expected.
TEST(SamplingDistributionErrors, MalformedSpecsAreRefusedWithClearMessages) {
  const std::vector<BadSpec> cases = {
      {"", "empty distribution, expected e.g. \"constant(20ms)\""},
      {"gauss(1ms, 2ms)",
       "unknown distribution \"gauss\", expected one of constant, uniform, normal, lognormal, exponential, "
       "pareto, "
       "empirical"},
      {"Uniform(1ms, 2ms)", "unknown distribution \"Uniform\""},
      {"uniform(1ms)", "uniform takes 2 arguments (low, high), got 1"},
      {"uniform(1ms, 2ms, 3ms)", "uniform takes 2 arguments (low, high), got 3"},
      {"constant()", "constant takes 1 argument (value), got 0"},
      {"uniform(1, 2ms)", "low: \"1\": missing duration unit, expected one of ns, us, ms, s"},
      {"uniform(5ms, 1ms)", "low must be <= high, got low 5ms > high 1ms"},
      {"normal(10ms, 0ms)", "sd must be > 0, got 0ms"},
      {"normal(10ms, -1ms)", "sd: \"-1ms\": a duration cannot be negative"},
      {"normal(abc, 1ms)", "mean: \"abc\": expected a number followed by a duration unit"},
      {"lognormal(20ms, 0)", "sigma must be > 0, got 0"},
      {"lognormal(0ms, 1)", "median must be > 0, got 0ms"},
      {"lognormal(20ms, 0.5ms)", "sigma: \"0.5ms\": expected a plain number without a unit"},
      {"lognormal(20ms, -1)", "sigma must be > 0, got -1"},
      {"exponential(0ms)", "mean must be > 0, got 0ms"},
      {"pareto(10ms, 0)", "shape must be > 0, got 0"},
      {"pareto(0ms, 2)", "scale must be > 0, got 0ms"},
      {"constant(20 parsecs)",
       "value: \"20 parsecs\": unknown duration unit \"parsecs\", expected one of ns, us, ms, s"},
      {"constant(-5ms)", "value: \"-5ms\": a duration cannot be negative, expected a value >= 0"},
      {"uniform(0ms, 250ms", "unbalanced parentheses, missing \")\" at the end"},
      {"uniform0ms, 250ms)", "unbalanced parentheses, \")\" without a matching \"(\""},
      {"uniform((0ms, 250ms))", "unbalanced parentheses, expected one \"(\" after the name and no nesting"},
      {"uniform(0ms, 250ms))", "unexpected text \")\" after \")\" (unbalanced parentheses)"},
      {"uniform(0ms, 250ms) + 1ms", "unexpected text \" + 1ms\" after \")\""},
      {"uniform(0ms,,250ms)", "empty argument, expected values separated by commas"},
      {"(0ms, 1ms)", "expected a distribution name before \"(\""},
      {"20",
       "expected a distribution (one of constant, uniform, normal, lognormal, exponential, pareto, "
       "empirical) "
       "or a single duration: \"20\": missing duration unit"},
      {"fast", "or a single duration: \"fast\": expected a number followed by a duration unit"},
      {"empirical()", "empirical takes 1 argument (file), got 0"},
  };
  EXPECT_GE(cases.size(), 15u);
  for (const BadSpec& bad : cases) {
    Result<Distribution> d = Distribution::parse(bad.spec, Quantity::kDuration, ".");
    ASSERT_FALSE(d.ok()) << bad.spec << " was accepted as " << d->spec();
    const std::string message = d.status().message();
    EXPECT_EQ(message.rfind("\"" + std::string(bad.spec) + "\": ", 0), 0u) << message;
    EXPECT_NE(message.find(bad.message_part), std::string::npos)
        << "spec: " << bad.spec << "\nmessage: " << message;
  }
}

TEST(SamplingDistributionErrors, NegativeArgumentsOfPlainNumbersAreRefused) {
  Result<Distribution> d = Distribution::parse("uniform(-1, 1)", Quantity::kNumber, ".");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "\"uniform(-1, 1)\": low must be >= 0, got -1");
}

}  // namespace
}  // namespace perflab
