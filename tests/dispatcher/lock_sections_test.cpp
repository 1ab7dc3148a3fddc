// The lock accounting a simulator relies on: which locked sections each method takes, in what order, and
// how many elements each touches (the counting rule is in models/dispatcher/op_counter.h).
#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/op_counter.h"
#include "models/dispatcher/recording_executor.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher {
namespace {

using ::testing::ElementsAre;

class DispatcherLockSectionsTest : public ::testing::TestWithParam<Strategy> {
 protected:
  DispatcherLockSectionsTest() : dispatcher_(executor_, GetParam()) {
    dispatcher_.set_lock_observer([this](const LockedSectionReport& report) { reports_.push_back(report); });
  }

  std::vector<LockedSection> sections() const {
    std::vector<LockedSection> sections;
    for (const LockedSectionReport& report : reports_) {
      sections.push_back(report.section);
    }
    return sections;
  }
  uint64_t reported_ops() const {
    uint64_t ops = 0;
    for (const LockedSectionReport& report : reports_) {
      ops += report.ops;
    }
    return ops;
  }

  RecordingExecutor executor_;
  Dispatcher dispatcher_;
  std::vector<LockedSectionReport> reports_;
};

TEST_P(DispatcherLockSectionsTest, EachMethodReportsItsSectionsInOrder) {
  CallPtr a1 = Call::Create("a", "a/1");
  ASSERT_TRUE(dispatcher_.enqueue(a1).ok());
  EXPECT_THAT(sections(), ElementsAre(LockedSection::kEnqueue, LockedSection::kPromote));

  reports_.clear();
  ASSERT_TRUE(dispatcher_.finished(*a1).ok());
  EXPECT_THAT(sections(), ElementsAre(LockedSection::kFinished, LockedSection::kPromote));

  reports_.clear();
  ASSERT_TRUE(dispatcher_.set_max_requests(3).ok());
  ASSERT_TRUE(dispatcher_.set_max_requests_per_host(2).ok());
  EXPECT_THAT(sections(), ElementsAre(LockedSection::kSetLimit, LockedSection::kPromote,
                                      LockedSection::kSetLimit, LockedSection::kPromote));

  reports_.clear();
  CallPtr sync = Call::Create("s");
  ASSERT_TRUE(dispatcher_.executed(sync).ok());
  dispatcher_.cancel_all();
  ASSERT_TRUE(dispatcher_.finished_sync(*sync).ok());
  EXPECT_THAT(sections(), ElementsAre(LockedSection::kExecuted, LockedSection::kCancelAll,
                                      LockedSection::kFinished, LockedSection::kPromote));
}

// The entry hook runs before each reported section and the observer after it, strictly alternating:
// enqueue() and finished() release the lock between their two sections, as OkHttp does, so a simulator
// can let other threads in between.
TEST_P(DispatcherLockSectionsTest, EntryHookAndObserverAlternateOncePerSection) {
  std::vector<char> events;
  dispatcher_.set_lock_entry_hook([&events] { events.push_back('+'); });
  dispatcher_.set_lock_observer([&events](const LockedSectionReport&) { events.push_back('-'); });
  CallPtr a1 = Call::Create("a", "a/1");
  ASSERT_TRUE(dispatcher_.enqueue(a1).ok());
  ASSERT_TRUE(dispatcher_.finished(*a1).ok());
  EXPECT_THAT(events, ElementsAre('+', '-', '+', '-', '+', '-', '+', '-'));

  events.clear();
  executor_.shutdown();
  ASSERT_TRUE(dispatcher_.enqueue(Call::Create("b")).ok());
  ASSERT_TRUE(dispatcher_.set_max_requests(5).ok());
  dispatcher_.cancel_all();
  EXPECT_THAT(events, ElementsAre('+', '-', '+', '-', '+', '-', '+', '-', '+', '-', '+', '-', '+', '-'));
}

TEST_P(DispatcherLockSectionsTest, RejectedCallIsFinishedInItsOwnSections) {
  executor_.shutdown();
  ASSERT_TRUE(dispatcher_.enqueue(Call::Create("a")).ok());
  EXPECT_THAT(sections(), ElementsAre(LockedSection::kEnqueue, LockedSection::kPromote,
                                      LockedSection::kFinished, LockedSection::kPromote));
}

TEST_P(DispatcherLockSectionsTest, ReportedOpsAddUpToTheTotal) {
  ASSERT_TRUE(dispatcher_.set_max_requests(4).ok());
  ASSERT_TRUE(dispatcher_.set_max_requests_per_host(2).ok());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(dispatcher_.enqueue(Call::Create("h" + std::to_string(i % 3))).ok());
  }
  for (size_t i = 0; i < executor_.call_count(); ++i) {
    ASSERT_TRUE(dispatcher_.finished(*executor_.call_at(i)).ok());
  }
  EXPECT_EQ(executor_.call_count(), 30u);
  EXPECT_GT(reported_ops(), 0u);
  EXPECT_EQ(reported_ops(), dispatcher_.ops_under_lock());
  EXPECT_EQ(reports_.size(), dispatcher_.locked_sections());
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, DispatcherLockSectionsTest,
                         ::testing::ValuesIn(kStrategyNames.values()), strategy_test_name);

// Exact counts for three enqueues to one host with maxRequests = maxRequestsPerHost = 3, worked by hand
// from the rule in op_counter.h. Per enqueue: [enqueue section, promote section].
std::vector<uint64_t> ops_of_three_enqueues(Strategy strategy) {
  RecordingExecutor executor;
  Dispatcher dispatcher(executor, strategy);
  EXPECT_TRUE(dispatcher.set_max_requests(3).ok());
  EXPECT_TRUE(dispatcher.set_max_requests_per_host(3).ok());
  std::vector<uint64_t> ops;
  dispatcher.set_lock_observer([&ops](const LockedSectionReport& report) { ops.push_back(report.ops); });
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(dispatcher.enqueue(Call::Create("a")).ok());
  }
  return ops;
}

TEST(DispatcherOpCount, ScanCountsEveryRunningCallScannedPerReadyCall) {
  // enqueue: append (1). promote: examine the ready call (1) + scan k running calls (k) + move it (1).
  EXPECT_THAT(ops_of_three_enqueues(Strategy::kScan), ElementsAre(1, 2, 1, 3, 1, 4));
}

TEST(DispatcherOpCount, CounterCountsTheSearchForACallToTheSameHost) {
  // enqueue: append (1) + search running then ready until a call to "a" (the first call finds itself at
  // the end of ready: 1; later ones find the first running call: 1). promote: examine (1) + move (1).
  EXPECT_THAT(ops_of_three_enqueues(Strategy::kCounter), ElementsAre(2, 2, 2, 2, 2, 2));
}

TEST(DispatcherOpCount, IndexedCountsHashLookupsAndTreePaths) {
  // enqueue: host lookup (1) + append (1) + insert the head into an empty set (1).
  // promote: take the smallest from a 1-element set (1) + pop (1) + record as running (1).
  EXPECT_THAT(ops_of_three_enqueues(Strategy::kIndexed), ElementsAre(3, 3, 3, 3, 3, 3));
}

TEST(DispatcherOpCount, TreeOperationCostsAPathLength) {
  const std::vector<std::pair<size_t, uint64_t>> cases = {{0, 1}, {1, 1},     {2, 2},    {3, 2},
                                                          {4, 3}, {1023, 10}, {1024, 11}};
  for (const auto& [size, path] : cases) {
    OpCounter ops;
    ops.tree_operation(size);
    EXPECT_EQ(ops.count(), path) << "tree of " << size;
  }
}

// OkHttp 3.13.1's finished(AsyncCall) decrements the call's callsPerHost before it takes the lock
// (Dispatcher.java:217; the lock at 228). A promotion that another thread runs in between sees the host's
// slot free while the finishing call is still running: counter promotes the next call to that host there,
// scan (3.12.0, which counts the running list under the lock) does not.
TEST(DispatcherFinishedBeforeLock, CounterFreesTheHostsSlotBeforeTakingTheLock) {
  for (const Strategy strategy : {Strategy::kCounter, Strategy::kScan}) {
    RecordingExecutor executor;
    Dispatcher dispatcher(executor, strategy);
    ASSERT_TRUE(dispatcher.set_max_requests_per_host(1).ok());
    CallPtr a1 = Call::Create("a", "a/1");
    ASSERT_TRUE(dispatcher.enqueue(a1).ok());
    ASSERT_TRUE(dispatcher.enqueue(Call::Create("a", "a/2")).ok());
    bool in_between = false;
    std::vector<std::string> running_in_between;
    dispatcher.set_lock_entry_hook([&] {
      if (in_between) return;
      in_between = true;  // finished(a/1) is about to take the lock: another thread promotes first
      EXPECT_TRUE(dispatcher.set_max_requests(100).ok());
      running_in_between = names_of(dispatcher.running_async_calls());
    });
    ASSERT_TRUE(dispatcher.finished(*a1).ok());
    dispatcher.set_lock_entry_hook(nullptr);
    if (strategy == Strategy::kCounter) {
      EXPECT_THAT(running_in_between, ElementsAre("a/1", "a/2"));
    } else {
      EXPECT_THAT(running_in_between, ElementsAre("a/1"));
    }
    EXPECT_THAT(names_of(dispatcher.running_async_calls()), ElementsAre("a/2"));
  }
}

}  // namespace
}  // namespace perflab::dispatcher
