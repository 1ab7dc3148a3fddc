// E-divisive means with a t-test (sim/stats/change_points.h) on series with known steps: what it must find,
// where, and what it must not (pure noise, a step smaller than the noise, a segment shorter than the
// minimum).
#include "sim/stats/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace perflab::stats {
namespace {

// Deterministic noise, the same on every platform: mt19937_64's output is fully specified, and the sum of
// 12 uniforms minus 6 is near-normal with standard deviation 1 (std::normal_distribution is not portable).
std::vector<double> noise(size_t n, double sigma, uint64_t seed) {
  std::mt19937_64 bits(seed);
  std::vector<double> out(n);
  for (auto& x : out) {
    double sum = 0;
    for (int k = 0; k < 12; ++k) sum += static_cast<double>(bits() >> 11) * 0x1.0p-53;
    x = sigma * (sum - 6);
  }
  return out;
}

// Noise around `levels[k]` for `lengths[k]` points each.
std::vector<double> steps(const std::vector<double>& levels, const std::vector<size_t>& lengths, double sigma,
                          uint64_t seed) {
  std::vector<double> out;
  for (size_t k = 0; k < levels.size(); ++k)
    for (size_t i = 0; i < lengths[k]; ++i) out.push_back(levels[k]);
  const auto jitter = noise(out.size(), sigma, seed);
  for (size_t i = 0; i < out.size(); ++i) out[i] += jitter[i];
  return out;
}

std::vector<size_t> indices(const std::vector<ChangePoint>& points) {
  std::vector<size_t> out;
  for (const auto& p : points) out.push_back(p.index);
  return out;
}

TEST(ChangePoints, FindsASingleStepWhereItIs) {
  const auto series = steps({10, 14}, {25, 25}, 1.0, 1);
  const auto found = change_points(series);
  ASSERT_EQ(indices(found), std::vector<size_t>{25});
  EXPECT_NEAR(found[0].mean_before, 10, 0.6);
  EXPECT_NEAR(found[0].mean_after, 14, 0.6);
  EXPECT_LE(found[0].pvalue, 0.001);
}

TEST(ChangePoints, FindsTwoStepsUpAndDown) {
  const auto series = steps({10, 15, 11}, {20, 15, 20}, 1.0, 2);
  EXPECT_EQ(indices(change_points(series)), (std::vector<size_t>{20, 35}));
}

TEST(ChangePoints, FindsNoneInPureNoise) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto series = steps({10}, {60}, 1.0, seed);
    EXPECT_TRUE(change_points(series).empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, MissesAStepSmallerThanTheNoise) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto series = steps({10, 10.3}, {15, 15}, 1.0, seed);
    EXPECT_TRUE(change_points(series).empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, ANoiselessStepIsFoundExactly) {
  std::vector<double> series(8, 2.0);
  series.insert(series.end(), 8, 3.0);
  const auto found = change_points(series);
  ASSERT_EQ(indices(found), std::vector<size_t>{8});
  EXPECT_EQ(found[0].pvalue, 0);
  EXPECT_EQ(found[0].mean_before, 2.0);
  EXPECT_EQ(found[0].mean_after, 3.0);
}

TEST(ChangePoints, RespectsTheMinimumSegment) {
  // A clean step two points from the end: with min_segment 2 it is found where it is; with 3 no change point
  // may leave fewer than 3 points on a side, so none is at 20.
  std::vector<double> series(20, 1.0);
  series.insert(series.end(), 2, 5.0);
  EXPECT_EQ(indices(change_points(series, {0.001, 2})), std::vector<size_t>{20});
  EXPECT_EQ(indices(change_points(series, {0.001, 0})), std::vector<size_t>{20});  // counts as 2
  for (const auto& point : change_points(series, {0.001, 3})) {
    EXPECT_GE(point.index, 3u);
    EXPECT_LE(point.index, series.size() - 3);
  }
  // Too short to split at all.
  EXPECT_TRUE(change_points({1, 1, 5, 5, 5}, {0.001, 3}).empty());
  EXPECT_TRUE(change_points({}).empty());
  EXPECT_TRUE(change_points({7}).empty());
}

TEST(ChangePoints, TiesGiveNoChangeAndTheSameAnswerEveryTime) {
  // Every value equal: every distance ties at 0, and nothing changed.
  EXPECT_TRUE(change_points(std::vector<double>(40, 3.25)).empty());
  // A level that goes and comes back (a bump): the splits at 10 and 20 have equal statistics; the earliest
  // is taken first, the other found next.
  std::vector<double> series(10, 0.0);
  series.insert(series.end(), 10, 5.0);
  series.insert(series.end(), 10, 0.0);
  const auto first = change_points(series);
  EXPECT_EQ(indices(first), (std::vector<size_t>{10, 20}));
  const auto again = change_points(series);
  ASSERT_EQ(again.size(), first.size());
  for (size_t k = 0; k < first.size(); ++k) EXPECT_EQ(again[k].pvalue, first[k].pvalue);
}

TEST(ChangePoints, IsDeterministicOnNoisySeries) {
  const auto series = steps({1.0, 1.5, 0.8, 1.2}, {30, 30, 30, 30}, 0.1, 7);
  const auto first = change_points(series), second = change_points(series);
  EXPECT_EQ(indices(first), (std::vector<size_t>{30, 60, 90}));
  EXPECT_EQ(indices(second), indices(first));
}

TEST(ChangePoints, CorrectingForTheChosenSplitKeepsPureNoiseQuiet) {
  // 1,000 pure-noise series of 60 points: the plain test of the best split fires on some (34 measured),
  // the corrected one on none (ChangePointOptions::correct_for_selection).
  int plain = 0, corrected = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    const auto series = noise(60, 1.0, seed);
    plain += !change_points(series, {0.001, 3, false}).empty();
    corrected += !change_points(series, {0.001, 3, true}).empty();
  }
  EXPECT_GT(plain, 5);
  EXPECT_LE(corrected, 1);
}

TEST(StudentTTest, MatchesAHandComputedValue) {
  // a: mean 2, variance 1; b: mean 4, variance 8.5 / 3; pooled variance (2 × 1 + 3 × 8.5 / 3) / 5 = 2.1;
  // t = 2 / sqrt(2.1 × (1/3 + 1/4)) on 5 dof: two-sided p = 0.1306 (scipy.stats.ttest_ind).
  const double a[] = {1, 2, 3}, b[] = {2, 3.5, 4.5, 6};
  const auto test = student_t_test(a, 3, b, 4);
  EXPECT_NEAR(test.t, 2 / std::sqrt(2.1 * (1.0 / 3 + 1.0 / 4)), 1e-12);
  EXPECT_EQ(test.dof, 5);
  EXPECT_NEAR(test.pvalue, 0.1306, 1e-4);
  const double same[] = {5, 5, 5}, other[] = {6, 6};
  EXPECT_EQ(student_t_test(same, 3, same, 3).pvalue, 1);
  EXPECT_EQ(student_t_test(same, 3, other, 2).pvalue, 0);
}

}  // namespace
}  // namespace perflab::stats
