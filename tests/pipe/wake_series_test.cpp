// The real pump's wake-ups and off-CPU stretches as a series (models/pipe/wake_series.h): a reader looks its
// delay up at its own time, and its CPU time skips the stretches the real pump was off its CPU.
#include "models/pipe/wake_series.h"

#include <gtest/gtest.h>

namespace perflab::pipe {
namespace {

// Wake-ups at 1 ms (5 us), 2 ms (a 300 us delay: the pump was not scheduled), 3 ms (6 us); off CPU from
// 4.0 to 4.5 ms and from 4.6 to 4.7 ms.
WakeSeries made_up() {
  return WakeSeries({{0.002, 300e-6}, {0.001, 5e-6}, {0.003, 6e-6}}, {{0.0046, 0.0047}, {0.004, 0.0045}});
}

TEST(WakeSeries, AReaderWokenInsideARealWakeWindowRunsWhenTheRealPumpDid) {
  const WakeSeries s = made_up();
  EXPECT_DOUBLE_EQ(s.woken(0.002), 0.0023);
  EXPECT_DOUBLE_EQ(s.woken(0.0021), 0.0023);  // not 0.0021 + 300 us, not + a median 6 us
}

TEST(WakeSeries, AfterAWindowTheDelayIsTheLastWakeUpsAtThatTime) {
  const WakeSeries s = made_up();
  EXPECT_DOUBLE_EQ(s.woken(0.0015), 0.0015 + 5e-6);    // after the 1 ms wake-up: its 5 us
  EXPECT_DOUBLE_EQ(s.woken(0.0025), 0.0025 + 300e-6);  // after the long one: the machine was slow then
  EXPECT_DOUBLE_EQ(s.woken(0.0005), 0.0005 + 5e-6);    // before the first: the first's
}

TEST(WakeSeries, WorkSkipsTheStretchesThePumpWasOffItsCpu) {
  const WakeSeries s = made_up();
  EXPECT_DOUBLE_EQ(s.finish(0.0035, 100e-6), 0.0036);     // no stretch on the way
  EXPECT_NEAR(s.finish(0.0039, 190e-6), 0.00459, 1e-12);  // 100 us, off CPU, 90 us
  EXPECT_NEAR(s.finish(0.0039, 250e-6), 0.00475, 1e-12);  // and past it
  EXPECT_DOUBLE_EQ(s.finish(0.0042, 0), 0.0045);          // begun off CPU: at the stretch's end
  EXPECT_DOUBLE_EQ(s.woken(0.003998), 0.0045);            // a wake-up delay that ends off CPU
}

TEST(WakeSeries, OverlappingStretchesAreOne) {
  const WakeSeries s({{0, 1e-6}}, {{0.001, 0.002}, {0.0015, 0.003}, {0.005, 0.005}});
  ASSERT_EQ(s.off_cpu().size(), 1u);  // the empty one dropped
  EXPECT_DOUBLE_EQ(s.off_cpu()[0].to, 0.003);
}

}  // namespace
}  // namespace perflab::pipe
