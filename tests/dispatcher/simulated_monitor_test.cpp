// The incident simulation's dispatcher monitor (scenarios/dispatcher/simulated_monitor.h): who gets it when
// it is released, under each hand-off policy. Each case is a small simulation of its own; SimGrid cannot
// re-create its engine in one process, so each runs in a forked child (a death test that exits 0) and
// prints what happened for the parent to match.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenarios/dispatcher/simulated_monitor.h"
#include "sim/engines/simgrid_world.h"

namespace perflab::dispatcher_study {
namespace {

namespace s4u = simgrid::s4u;

constexpr double kNsPerOp = 1;  // a section of 1000 ops holds the monitor 1 µs

// A simulated thread: at `start` (µs) it runs `sections` locked sections of 1000 ops back to back, like
// enqueue() going straight from its first section to promoteAndExecute().
struct Thread {
  std::string name;
  double start_us;
  int sections;
};

// Runs the threads on one monitor; prints "order: A A B" (who took the monitor, in order), then the total
// wait in µs and the most threads blocked at once, and exits.
[[noreturn]] void simulate(LockHandOff hand_off, const std::vector<Thread>& threads) {
  SimGridWorld world(NetworkSpec{}, Rng(1), {"host"});
  LockCostModel cost;  // elements only: every other term 0
  cost.ns_per_op = kNsPerOp;
  SimulatedMonitor monitor(hand_off, cost, nullptr);
  std::string order;
  for (const Thread& thread : threads) {
    s4u::Actor::create(thread.name, world.host("host"), [&monitor, &order, thread] {
      s4u::this_actor::sleep_for(thread.start_us * 1e-6);
      for (int i = 0; i < thread.sections; ++i) {
        monitor.enter();
        order += " " + thread.name;
        monitor.exit({dispatcher::LockedSection::kEnqueue, 1000, 0, 0});
      }
    });
  }
  world.run();
  std::fprintf(stderr, "order:%s; waited %.1f us; blocked at most %d; acquisitions %llu\n", order.c_str(),
               monitor.wait_total() * 1e6, monitor.blocked_max(),
               static_cast<unsigned long long>(monitor.acquisitions()));
  std::exit(0);
}

// A holds the monitor for its first section while B blocks. Barging: A, still running when it releases,
// takes the monitor again for its second section, and B waits for both (0.5 to 2 µs). FIFO: B is next.
TEST(SimulatedMonitorDeathTest, BargingReleaserTakesItsSecondSectionAheadOfABlockedThread) {
  EXPECT_EXIT(simulate(LockHandOff::kBarging, {{"A", 0, 2}, {"B", 0.5, 1}}), ::testing::ExitedWithCode(0),
              "order: A A B; waited 1.5 us; blocked at most 1; acquisitions 3");
}

TEST(SimulatedMonitorDeathTest, FifoHandsTheMonitorToTheBlockedThread) {
  // B waits 0.5 µs (0.5 to 1) instead of 1.5, A's second section waits 1 µs behind B.
  EXPECT_EXIT(simulate(LockHandOff::kFifo, {{"A", 0, 2}, {"B", 0.5, 1}}), ::testing::ExitedWithCode(0),
              "order: A B A; waited 1.5 us; blocked at most 1; acquisitions 3");
}

// With no running thread competing, both policies serve blocked threads longest-blocked first.
TEST(SimulatedMonitorDeathTest, BlockedThreadsAreServedInArrivalOrderUnderBothPolicies) {
  const std::vector<Thread> threads = {{"A", 0, 1}, {"B", 0.1, 1}, {"C", 0.2, 1}, {"D", 0.3, 1}};
  // Waits: B 0.9, C 1.8, D 2.7 µs.
  EXPECT_EXIT(simulate(LockHandOff::kBarging, threads), ::testing::ExitedWithCode(0),
              "order: A B C D; waited 5.4 us; blocked at most 3");
  EXPECT_EXIT(simulate(LockHandOff::kFifo, threads), ::testing::ExitedWithCode(0),
              "order: A B C D; waited 5.4 us; blocked at most 3");
}

// Barging keeps the woken thread first in line: A releases, wakes B and barges back in twice; C, blocked
// after B, still comes after B.
TEST(SimulatedMonitorDeathTest, AThreadThatLosesTheRaceStaysFirstInLine) {
  EXPECT_EXIT(simulate(LockHandOff::kBarging, {{"A", 0, 3}, {"B", 0.1, 1}, {"C", 0.2, 1}}),
              ::testing::ExitedWithCode(0), "order: A A A B C");
}

// The policies part where the thread that lost the race is woken again. A takes two sections, then B two,
// while C waits. Barging: B lost to A's second section and is still first, so B's sections come before C's.
// glibc: B went behind C when it lost, so C, woken at A's last release, is next, and B comes last.
TEST(SimulatedMonitorDeathTest, UnderGlibcAThreadThatLosesTheRaceQueuesBehindTheOthers) {
  const std::vector<Thread> threads = {{"A", 0, 2}, {"B", 0.1, 2}, {"C", 0.2, 1}};
  EXPECT_EXIT(simulate(LockHandOff::kBarging, threads), ::testing::ExitedWithCode(0), "order: A A B B C;");
  EXPECT_EXIT(simulate(LockHandOff::kGlibc, threads), ::testing::ExitedWithCode(0), "order: A A C B B;");
}

TEST(SimulatedMonitor, HandOffPolicyNames) {
  EXPECT_EQ(*kLockHandOffNames.parse("barging"), LockHandOff::kBarging);
  EXPECT_EQ(*kLockHandOffNames.parse("fifo"), LockHandOff::kFifo);
  EXPECT_EQ(*kLockHandOffNames.parse("glibc"), LockHandOff::kGlibc);
  Result<LockHandOff> unknown = kLockHandOffNames.parse("fair");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown lock hand-off policy \"fair\", expected one of: barging, fifo, glibc");
}

}  // namespace
}  // namespace perflab::dispatcher_study
