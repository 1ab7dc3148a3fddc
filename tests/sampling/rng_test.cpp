// Rng and derive_seed: pinned outputs (a change of algorithm must show up here), range, uniformity,
// and independence of derived seeds and streams.
#include "sim/sampling/rng.h"

#include <cmath>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace perflab {
namespace {

// Reference values computed independently (Python transcription of the published xoshiro256** and
// splitmix64 algorithms).
TEST(SamplingRng, PinnedOutputs) {
  Rng rng(42);
  EXPECT_EQ(rng.next_u64(), 0x15780b2e0c2ec716ULL);
  EXPECT_EQ(rng.next_u64(), 0x6104d9866d113a7eULL);
  EXPECT_EQ(rng.next_u64(), 0xae17533239e499a1ULL);

  Rng zero(0);
  EXPECT_EQ(zero.next_u64(), 0x99ec5f36cb75f2b4ULL);

  Rng seven(7);
  EXPECT_EQ(seven.uniform01(), 0.7005764821796896);

  EXPECT_EQ(derive_seed(1, 2), 0xa70bd0a2486c7a05ULL);
  EXPECT_EQ(derive_seed(1, 0), 0xf92b165c79c97d14ULL);
  EXPECT_EQ(fnv1a("network.latency"), 0x95db49c7795e674dULL);
}

TEST(SamplingRng, SameSeedSameSequence) {
  Rng a(123456789), b(123456789);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
}

TEST(SamplingRng, Uniform01IsInRangeAndUniform) {
  Rng rng(5);
  constexpr int kDraws = 1'000'000;
  std::vector<int> deciles(10, 0);
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double u = rng.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    ++deciles[static_cast<int>(u * 10)];
  }
  // Standard error of the mean of U(0,1): sqrt(1/12 / n); of a decile count: sqrt(n 0.1 0.9).
  EXPECT_NEAR(sum / kDraws, 0.5, 5 * std::sqrt(1.0 / 12 / kDraws));
  for (int count : deciles) EXPECT_NEAR(count, kDraws * 0.1, 5 * std::sqrt(kDraws * 0.1 * 0.9));
}

TEST(SamplingRng, UniformIndexCoversTheRangeEvenly) {
  Rng rng(9);
  constexpr int kDraws = 300'000;
  constexpr uint64_t kN = 3;
  std::vector<int> counts(kN, 0);
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t index = rng.uniform_index(kN);
    ASSERT_LT(index, kN);
    ++counts[index];
  }
  for (int count : counts) EXPECT_NEAR(count, kDraws / 3.0, 5 * std::sqrt(kDraws * (1.0 / 3) * (2.0 / 3)));
  EXPECT_EQ(rng.uniform_index(0), 0u);
  EXPECT_EQ(rng.uniform_index(1), 0u);
}

TEST(SamplingRng, DerivedSeedsDifferForEveryInput) {
  std::set<uint64_t> seeds;
  for (uint64_t run = 0; run < 64; ++run)
    for (uint64_t stream = 0; stream < 16; ++stream) seeds.insert(derive_seed(run, stream));
  EXPECT_EQ(seeds.size(), 64u * 16);
  EXPECT_NE(derive_seed(2, 3), derive_seed(3, 2));
  EXPECT_NE(derive_seed(0, 0), 0u);
}

TEST(SamplingRng, DerivedSeedsGiveDifferentSequences) {
  Rng a(derive_seed(1, 0)), b(derive_seed(1, 1)), c(derive_seed(2, 0)), d(derive_seed(0, 1));
  int equal = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = a.next_u64();
    equal += (x == b.next_u64()) + (x == c.next_u64()) + (x == d.next_u64());
  }
  EXPECT_EQ(equal, 0);
}

// Neighbouring streams (and runs) must look independent: the sample
// correlation of their uniforms is within 5 standard errors (1/sqrt(n)) of zero.
TEST(SamplingRng, NeighbouringStreamsAreUncorrelated) {
  constexpr int kDraws = 200'000;
  const auto correlation = [&](uint64_t seed_a, uint64_t seed_b) {
    Rng a(seed_a), b(seed_b);
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (int i = 0; i < kDraws; ++i) {
      const double x = a.uniform01(), y = b.uniform01();
      sa += x, sb += y, saa += x * x, sbb += y * y, sab += x * y;
    }
    const double cov = sab / kDraws - (sa / kDraws) * (sb / kDraws);
    const double var_a = saa / kDraws - (sa / kDraws) * (sa / kDraws);
    const double var_b = sbb / kDraws - (sb / kDraws) * (sb / kDraws);
    return cov / std::sqrt(var_a * var_b);
  };
  const double bound = 5 / std::sqrt(kDraws);
  EXPECT_LT(std::fabs(correlation(derive_seed(3, 0), derive_seed(3, 1))), bound);
  EXPECT_LT(std::fabs(correlation(derive_seed(3, 0), derive_seed(4, 0))), bound);
  EXPECT_LT(std::fabs(correlation(derive_seed(3, fnv1a("a.b")), derive_seed(3, fnv1a("a.c")))), bound);
}

}  // namespace
}  // namespace perflab
