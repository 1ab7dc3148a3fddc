// The wake-up probe (sim/engines/real/wake_up_probe.h): its plan (how long each sleep, how many), its
// measurement on a scripted clock (each sleep idles the whole length from the previous wake; the median
// and largest lateness), and on the real clock what holds whatever the load: it never wakes early and makes
// the sleeps it plans.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/engines/real/wake_up_probe.h"

namespace perflab::real {
namespace {

constexpr std::int64_t kUs = 1'000;

TEST(WakeUpProbe, SleepsAsLongAsTheMeanLatencyWithinItsBounds) {
  EXPECT_DOUBLE_EQ(probe_length(0.002), 0.002);
  EXPECT_DOUBLE_EQ(probe_length(0), kProbeShortest);  // no latency: the shortest sleep there is
  EXPECT_DOUBLE_EQ(probe_length(std::nan("")), kProbeShortest);
  EXPECT_DOUBLE_EQ(probe_length(std::numeric_limits<double>::infinity()),
                   kProbeLongest);  // pareto, shape <= 1
}

TEST(WakeUpProbe, MakesAsManySleepsAsHalfASecondHoldsWithinItsBounds) {
  EXPECT_EQ(probe_sleeps(0.005), 100);
  EXPECT_EQ(probe_sleeps(0.002), kProbeMost);            // 250 fit: capped
  EXPECT_EQ(probe_sleeps(kProbeLongest), kProbeFewest);  // 10 fit: a median needs more
}

TEST(WakeUpProbe, EachSleepIdlesTheWholeLengthAndTheWakeUpIsTheMedianLateness) {
  const std::vector<std::int64_t> late = {30 * kUs, 10 * kUs, 500 * kUs, 20 * kUs, 25 * kUs};
  std::vector<std::int64_t> deadlines;
  size_t next = 0;
  const WakeUpProbe probe = measure_wake_up(0.002, 5, 1'000'000, [&](std::int64_t deadline) {
    deadlines.push_back(deadline);
    return deadline + late[next++];
  });
  EXPECT_EQ(probe.sleeps, 5);
  EXPECT_DOUBLE_EQ(probe.length_s, 0.002);
  EXPECT_NEAR(probe.wake_up_s, 25e-6, 1e-12);  // the median, not the mean (117 µs, one late outlier)
  EXPECT_NEAR(probe.max_s, 500e-6, 1e-12);
  // The first from the start, each next one 2 ms after the previous woke.
  std::vector<std::int64_t> expected;
  std::int64_t woke = 1'000'000;
  for (std::int64_t l : late) {
    expected.push_back(woke + 2'000 * kUs);
    woke = expected.back() + l;
  }
  EXPECT_EQ(deadlines, expected);
}

TEST(WakeUpProbe, OnThisMachineNeverWakesEarlyAndMakesTheSleepsItPlans) {
  auto probe = probe_wake_up(100e-6);  // 201 sleeps of 100 µs: a few tens of milliseconds
  ASSERT_TRUE(probe.ok()) << probe.status().message();
  EXPECT_DOUBLE_EQ(probe->length_s, 100e-6);
  EXPECT_EQ(probe->sleeps, probe_sleeps(100e-6));
  EXPECT_GE(probe->wake_up_s, 0);
  EXPECT_GE(probe->max_s, probe->wake_up_s);
}

}  // namespace
}  // namespace perflab::real
