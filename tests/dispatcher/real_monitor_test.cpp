// The incident's real engine, its threaded parts (scenarios/dispatcher/real_monitor.h and
// thread_pool_executor.h) on a real Dispatcher: application threads enqueue, a thread pool runs and
// finishes the calls, every locked section under the real monitor. Checked: every call runs exactly once,
// the monitor sees every section (two per enqueue, two per finished) and the elements the Dispatcher
// counted, its recorded holds never overlap and add up to what it reports, and a thread that finds the lock
// taken is counted as blocked until it gets it. No timing is asserted. Built under ThreadSanitizer too.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/recording_executor.h"
#include "scenarios/dispatcher/real_monitor.h"
#include "scenarios/dispatcher/thread_pool_executor.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher_study {
namespace {

using dispatcher::Call;
using dispatcher::CallPtr;
using dispatcher::Dispatcher;
using dispatcher::Strategy;

constexpr int kApplicationThreads = 6;
constexpr int kCallsPerThread = 150;
constexpr int kHosts = 7;

class RealMonitorTest : public ::testing::TestWithParam<Strategy> {};

TEST_P(RealMonitorTest, EveryCallRunsOnceAndEverySectionIsTimedUnderTheLock) {
  constexpr int kCalls = kApplicationThreads * kCallsPerThread;
  std::vector<std::atomic<int>> runs(kCalls);
  std::vector<CallPtr> calls;
  std::unordered_map<const Call*, int> index;
  for (int i = 0; i < kCalls; ++i) {
    calls.push_back(Call::Create("h" + std::to_string(i % kHosts), "call-" + std::to_string(i)));
    index[calls.back().get()] = i;
  }
  RealMonitor monitor({}, /*expected_sections=*/4 * kCalls);
  std::atomic<int> finished{0};
  Dispatcher* dispatcher_ptr = nullptr;
  uint64_t ops_before = 0;
  {
    // Declared before the pool, so the pool's workers are joined while the Dispatcher still exists.
    std::unique_ptr<Dispatcher> dispatcher;
    dispatcher::ThreadPoolExecutor pool(4, [&](const CallPtr& call) {
      runs[static_cast<size_t>(index.at(call.get()))].fetch_add(1);
      std::this_thread::yield();
      EXPECT_TRUE(dispatcher_ptr->finished(*call).ok());
      finished.fetch_add(1);
    });
    dispatcher = std::make_unique<Dispatcher>(pool, GetParam());
    dispatcher_ptr = dispatcher.get();
    ASSERT_TRUE(dispatcher->set_max_requests(8).ok());
    ASSERT_TRUE(dispatcher->set_max_requests_per_host(2).ok());
    ops_before = dispatcher->ops_under_lock();
    const uint64_t sections_before = dispatcher->locked_sections();
    monitor.guard(*dispatcher);

    std::vector<std::thread> application;
    for (int t = 0; t < kApplicationThreads; ++t) {
      application.emplace_back([&, t] {
        for (int i = t; i < kCalls; i += kApplicationThreads) {
          EXPECT_TRUE(dispatcher->enqueue(calls[static_cast<size_t>(i)]).ok());
        }
      });
    }
    for (auto& thread : application) thread.join();
    for (int spins = 0; finished.load() < kCalls && spins < 20'000; ++spins) {  // at most ~20 s
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(finished.load(), kCalls);
    EXPECT_EQ(dispatcher->running_calls_count(), 0u);
    EXPECT_EQ(dispatcher->locked_sections() - sections_before, monitor.acquisitions());
    EXPECT_EQ(dispatcher->ops_under_lock() - ops_before, monitor.ops_total());
  }
  for (int i = 0; i < kCalls; ++i) EXPECT_EQ(runs[static_cast<size_t>(i)].load(), 1) << "call-" << i;
  EXPECT_EQ(monitor.acquisitions(), 4u * kCalls);  // enqueue + promote, finished + promote
  // The cost model's tally counts every section and element once; the first section moved the lock (it
  // had no holder), and with several threads it moves at least once more.
  EXPECT_EQ(monitor.tally().sections, monitor.acquisitions());
  EXPECT_EQ(monitor.tally().ops, monitor.ops_total());
  EXPECT_GE(monitor.tally().moves, 2u);
  // The first section is charged the gap every run's first section is, in both engines; the others >= 0.
  EXPECT_GE(monitor.tally().idle_decades, std::log10(kFirstSectionGapS / kIdleGapS));
  EXPECT_LE(monitor.tally().moves, monitor.tally().sections);

  std::vector<RealMonitor::Hold> holds = monitor.holds();
  ASSERT_EQ(holds.size(), monitor.acquisitions());
  std::int64_t total = 0, longest = 0;
  for (size_t i = 0; i < holds.size(); ++i) {
    EXPECT_LE(holds[i].asked_ns, holds[i].acquired_ns);
    EXPECT_LE(holds[i].acquired_ns, holds[i].released_ns);
    if (i > 0) {
      EXPECT_GE(holds[i].acquired_ns, holds[i - 1].released_ns) << "holds " << i - 1 << " and " << i;
    }
    total += holds[i].released_ns - holds[i].acquired_ns;
    longest = std::max(longest, holds[i].released_ns - holds[i].acquired_ns);
  }
  EXPECT_DOUBLE_EQ(monitor.hold_total(), static_cast<double>(total) * 1e-9);
  EXPECT_DOUBLE_EQ(monitor.hold_max(), static_cast<double>(longest) * 1e-9);
  EXPECT_LE(monitor.blocked_max(), kApplicationThreads + 4);
}

INSTANTIATE_TEST_SUITE_P(Strategies, RealMonitorTest,
                         ::testing::Values(Strategy::kScan, Strategy::kCounter, Strategy::kIndexed),
                         dispatcher::strategy_test_name);

// While this thread holds the monitor, an enqueue on another thread blocks: it is counted until it gets in.
TEST(RealMonitor, AThreadThatFindsTheLockTakenIsBlockedUntilItGetsIt) {
  dispatcher::ThreadPoolExecutor pool(1, [](const CallPtr&) {});
  Dispatcher dispatcher(pool, Strategy::kCounter);
  RealMonitor monitor;
  monitor.guard(dispatcher);
  monitor.enter();
  std::thread caller([&] { EXPECT_TRUE(dispatcher.enqueue(Call::Create("a", "a/1")).ok()); });
  for (int spins = 0; monitor.blocked_now() == 0 && spins < 10'000; ++spins) {  // at most ~10 s
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(monitor.blocked_now(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  monitor.exit({dispatcher::LockedSection::kEnqueue, 0, 0, 0});
  caller.join();
  EXPECT_EQ(monitor.blocked_now(), 0);
  EXPECT_EQ(monitor.blocked_max(), 1);
  EXPECT_GE(monitor.wait_total(), 2e-3);
  EXPECT_EQ(monitor.acquisitions(), 3u);  // ours, then enqueue's two sections
}

// The diagnostic trace: with PERFLAB_DISPATCHER_SECTION_TRACE set, the monitor writes one row per section,
// in the order they held the lock, with the Dispatcher's report of each, when it is destroyed.
TEST(RealMonitorTrace, WritesEverySectionWhenAsked) {
  const std::string dir = ::testing::TempDir() + "section-trace-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  ::setenv("PERFLAB_DISPATCHER_SECTION_TRACE", dir.c_str(), 1);
  {
    dispatcher::RecordingExecutor executor;
    Dispatcher dispatcher(executor, Strategy::kScan);
    RealMonitor monitor({}, 8);
    monitor.guard(dispatcher);
    CallPtr a1 = Call::Create("a", "a/1");
    ASSERT_TRUE(dispatcher.enqueue(a1).ok());
    ASSERT_TRUE(dispatcher.enqueue(Call::Create("a", "a/2")).ok());
    ASSERT_TRUE(dispatcher.finished(*a1).ok());
  }
  ::unsetenv("PERFLAB_DISPATCHER_SECTION_TRACE");
  std::vector<std::string> lines;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::filesystem::remove_all(dir);
  ASSERT_EQ(lines.size(), 7u);  // header, then enqueue, promote, enqueue, promote, finished, promote
  EXPECT_EQ(lines[0], "i,section,ops,running,ready,thread,waited,asked_ns,acquired_ns,released_ns");
  EXPECT_EQ(lines[1].rfind("0,enqueue,1,0,0,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[5].rfind("4,finished,1,2,0,", 0), 0u) << lines[5];
}

}  // namespace
}  // namespace perflab::dispatcher_study
