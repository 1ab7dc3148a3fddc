// The rank rule of `perflab validate` (sim/stats/rank_agreement.h) on synthetic points: pairs the sim
// separates by less than the real noise are not judged; ties in the real medians are handled by tau-b.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/stats/rank_agreement.h"

namespace perflab {
namespace {

// A point whose real median is `real` with an interval of +-`half_width`.
RankedPoint at(double sim, double real, double half_width) {
  return {sim, real, real - half_width, real + half_width};
}

TEST(RankAgreement, SameOrderEverywhereIsTauOne) {
  auto r = rank_agreement({at(1, 1.1, 0.01), at(2, 2.3, 0.01), at(3, 3.2, 0.01), at(4, 4.4, 0.01)});
  EXPECT_EQ(r.pairs, 6);
  EXPECT_EQ(r.testable, 6);
  EXPECT_EQ(r.concordant, 6);
  EXPECT_DOUBLE_EQ(r.tau, 1.0);
}

TEST(RankAgreement, ReversedOrderIsTauMinusOne) {
  auto r = rank_agreement({at(1, 4, 0.01), at(2, 3, 0.01), at(3, 2, 0.01), at(4, 1, 0.01)});
  EXPECT_EQ(r.discordant, 6);
  EXPECT_DOUBLE_EQ(r.tau, -1.0);
}

// pipe's pack-objects: the sim says 4098 reads at every pipe size, the real runs 4092-4098 in shuffled order.
// No pair is testable: the order is noise, and the rule says so instead of failing on it.
TEST(RankAgreement, DifferencesWithinTheRealIntervalAreNotTestable) {
  auto r = rank_agreement({at(4098, 4098, 2), at(4098, 4092, 3), at(4098.5, 4095, 3), at(4099, 4094, 2)});
  EXPECT_EQ(r.pairs, 6);
  EXPECT_EQ(r.testable, 0);
  EXPECT_TRUE(std::isnan(r.tau));
}

// Points 1 and 2 lie 0.05 apart in the sim, inside their real intervals (width 0.2): their swapped real order
// is not counted. The other pairs are ordered alike, so tau is 1 over 5 testable pairs.
TEST(RankAgreement, OnlyTheTestablePairsAreJudged) {
  auto r = rank_agreement({at(1, 1, 0.1), at(1.05, 0.98, 0.1), at(3, 3.1, 0.1), at(5, 5.2, 0.1)});
  EXPECT_EQ(r.pairs, 6);
  EXPECT_EQ(r.testable, 5);
  EXPECT_EQ(r.discordant, 0);
  EXPECT_DOUBLE_EQ(r.tau, 1.0);
}

// The wider of the two intervals decides: a 1.0 difference against a width of 1.2 at one point is noise.
TEST(RankAgreement, TheWiderIntervalOfAPairDecides) {
  EXPECT_EQ(rank_agreement({at(1, 1, 0.6), at(2, 2, 0.01)}).testable, 0);
  EXPECT_EQ(rank_agreement({at(1, 1, 0.4), at(2, 2, 0.01)}).testable, 1);
}

// Real medians tied on a testable pair: tau-b's correction, (C - D) / sqrt(n0 (n0 - ties)).
TEST(RankAgreement, RealTiesUseTauB) {
  auto r = rank_agreement({at(1, 1, 0), at(2, 2, 0), at(3, 2, 0)});
  EXPECT_EQ(r.testable, 3);
  EXPECT_EQ(r.concordant, 2);
  EXPECT_EQ(r.real_ties, 1);
  EXPECT_DOUBLE_EQ(r.tau, 2 / std::sqrt(3.0 * 2.0));
}

// The sim predicts an order the real runs do not show at all: no agreement, tau 0 (a failure), not NaN.
TEST(RankAgreement, EveryTestablePairTiedInRealIsNoAgreement) {
  auto r = rank_agreement({at(1, 5, 0), at(2, 5, 0)});
  EXPECT_EQ(r.testable, 1);
  EXPECT_DOUBLE_EQ(r.tau, 0.0);
}

}  // namespace
}  // namespace perflab
