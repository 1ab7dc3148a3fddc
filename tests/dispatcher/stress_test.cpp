// Stress test with real threads: 8 producer threads enqueue async calls (to 24 hosts, some WebSocket)
// and run short sync calls, a 4-thread pool executes the calls and finishes them, a monitor samples the
// dispatcher's running list, one producer keeps calling cancel_all(). Checked: never more than
// maxRequests calls running nor more than maxRequestsPerHost per host (WebSocket calls aside), every
// call run exactly once, nothing lost, the dispatcher idle at the end. 100,000 calls per strategy
// (50,000 under ThreadSanitizer); DISPATCHER_STRESS_CALLS overrides.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "models/dispatcher/dispatcher.h"
#include "scenarios/dispatcher/thread_pool_executor.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher {
namespace {

constexpr int kProducers = 8;
constexpr int kWorkers = 4;
constexpr int kHosts = 24;
constexpr int kMaxRequests = 16;
constexpr int kMaxRequestsPerHost = 3;
constexpr int kOutstandingPerProducer = 48;  // keeps the ready queue bounded, so the scan stays fast

int total_calls() {
  if (const char* env = std::getenv("DISPATCHER_STRESS_CALLS")) {
    return std::max(kProducers, std::atoi(env));
  }
#if defined(__SANITIZE_THREAD__)
  return 50'000;
#else
  return 100'000;
#endif
}

// A Call that remembers who made it, for the checks (the simulator can extend Call the same way).
class StressCall : public Call {
 public:
  StressCall(int id, int producer, int host_index, bool web_socket, FailureCallback on_failure)
      : Call("h" + std::to_string(host_index), "h" + std::to_string(host_index) + "/" + std::to_string(id),
             web_socket, std::move(on_failure)),
        id(id),
        producer(producer),
        host_index(host_index) {}
  const int id;
  const int producer;
  const int host_index;
};

// How many of a producer's calls are enqueued but not finished; the producer waits when it has too many.
struct Outstanding {
  std::mutex mutex;
  std::condition_variable changed;
  int calls = 0;
};

class DispatcherStressTest : public ::testing::TestWithParam<Strategy> {};

TEST_P(DispatcherStressTest, LimitsHoldAndEveryCallRunsOnce) {
  const int calls_per_producer = total_calls() / kProducers;
  const int total = calls_per_producer * kProducers;

  std::vector<std::atomic<int>> runs(static_cast<size_t>(total));
  std::vector<std::atomic<int>> active_per_host(kHosts);
  std::atomic<int> active_total{0};
  std::atomic<int> violations{0}, finish_errors{0}, failures{0}, idle_callbacks{0};
  std::atomic<int> async_finished{0}, async_enqueued{0};
  std::vector<Outstanding> outstanding(kProducers);
  std::mutex done_mutex;
  std::condition_variable done;

  Dispatcher* dispatcher_ptr = nullptr;  // set before any call is enqueued
  ThreadPoolExecutor executor(kWorkers, [&](const CallPtr& call) {
    const auto& stress_call = static_cast<const StressCall&>(*call);
    runs[static_cast<size_t>(stress_call.id)].fetch_add(1);
    if (active_total.fetch_add(1) + 1 > kMaxRequests) {
      violations.fetch_add(1);
    }
    std::atomic<int>& host = active_per_host[static_cast<size_t>(stress_call.host_index)];
    if (!call->for_web_socket() && host.fetch_add(1) + 1 > kMaxRequestsPerHost) {
      violations.fetch_add(1);
    }
    std::this_thread::yield();
    if (!call->for_web_socket()) {
      host.fetch_sub(1);
    }
    active_total.fetch_sub(1);

    if (!dispatcher_ptr->finished(*call).ok()) {
      finish_errors.fetch_add(1);
    }
    Outstanding& mine = outstanding[static_cast<size_t>(stress_call.producer)];
    {
      std::lock_guard<std::mutex> lock(mine.mutex);
      --mine.calls;
    }
    mine.changed.notify_one();
    if (async_finished.fetch_add(1) + 1 == total) {
      std::lock_guard<std::mutex> lock(done_mutex);
      done.notify_all();
    }
  });
  Dispatcher dispatcher(executor, GetParam());
  dispatcher_ptr = &dispatcher;
  ASSERT_TRUE(dispatcher.set_max_requests(kMaxRequests).ok());
  ASSERT_TRUE(dispatcher.set_max_requests_per_host(kMaxRequestsPerHost).ok());
  dispatcher.set_idle_callback([&idle_callbacks] { idle_callbacks.fetch_add(1); });

  std::atomic<bool> producing{true};
  std::atomic<int> peak_running{0};
  std::thread monitor([&] {
    while (producing.load()) {
      const std::vector<CallPtr> running = dispatcher.running_async_calls();
      if (running.size() > static_cast<size_t>(kMaxRequests)) {
        violations.fetch_add(1);
      }
      // Per host in the running list: not for counter, where (as in OkHttp 3.13.1, Dispatcher.java:217)
      // a finishing call frees its host's slot before it takes the lock to leave the list, so the list may
      // briefly hold a host's next call beside it. The calls executing (the workers' count) stay capped.
      if (GetParam() != Strategy::kCounter) {
        std::map<std::string, int> per_host;
        for (const CallPtr& call : running) {
          if (!call->for_web_socket() && ++per_host[call->host()] > kMaxRequestsPerHost) {
            violations.fetch_add(1);
          }
        }
      }
      int peak = peak_running.load();
      while (static_cast<int>(running.size()) > peak &&
             !peak_running.compare_exchange_weak(peak, static_cast<int>(running.size()))) {
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });

  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      std::mt19937 random(static_cast<unsigned>(p) + 1);
      std::uniform_int_distribution<int> host(0, kHosts - 1);
      std::uniform_int_distribution<int> percent(0, 99);
      Outstanding& mine = outstanding[static_cast<size_t>(p)];
      for (int i = 0; i < calls_per_producer; ++i) {
        {
          std::unique_lock<std::mutex> lock(mine.mutex);
          mine.changed.wait(lock, [&mine] { return mine.calls < kOutstandingPerProducer; });
          ++mine.calls;
        }
        const int id = p * calls_per_producer + i;
        auto call =
            std::make_shared<StressCall>(id, p, host(random), percent(random) < 5,
                                         [&failures](const Call&, const Status&) { failures.fetch_add(1); });
        if (!dispatcher.enqueue(call).ok()) {
          finish_errors.fetch_add(1);
        }
        async_enqueued.fetch_add(1);

        if (percent(random) < 2) {  // a synchronous call on this thread: never limited
          CallPtr sync = Call::Create("h" + std::to_string(host(random)), "sync");
          if (!dispatcher.executed(sync).ok() || !dispatcher.finished_sync(*sync).ok()) {
            finish_errors.fetch_add(1);
          }
        }
        if (p == 0 && i % 1000 == 999) {
          dispatcher.cancel_all();
        }
      }
    });
  }

  {
    std::unique_lock<std::mutex> lock(done_mutex);
    const bool finished_in_time =
        done.wait_for(lock, std::chrono::minutes(5), [&] { return async_finished.load() == total; });
    if (!finished_in_time) {
      ADD_FAILURE() << "stuck: " << async_finished.load() << " of " << total << " calls finished, "
                    << dispatcher.queued_calls_count() << " queued, " << dispatcher.running_calls_count()
                    << " running";
      std::abort();  // threads are blocked; nothing sensible to join
    }
  }
  for (std::thread& producer : producers) {
    producer.join();
  }
  producing.store(false);
  monitor.join();

  EXPECT_EQ(async_enqueued.load(), total);
  EXPECT_EQ(violations.load(), 0);
  EXPECT_EQ(finish_errors.load(), 0);
  EXPECT_EQ(failures.load(), 0);
  int not_once = 0;
  for (const std::atomic<int>& count : runs) {
    not_once += count.load() != 1;
  }
  EXPECT_EQ(not_once, 0) << "calls lost or run twice";
  EXPECT_EQ(dispatcher.running_calls_count(), 0u);
  EXPECT_EQ(dispatcher.queued_calls_count(), 0u);
  EXPECT_GE(idle_callbacks.load(), 1);
  EXPECT_GE(peak_running.load(), 2) << "the test should run calls concurrently";
  RecordProperty("calls", total);
  RecordProperty("peak_running", peak_running.load());
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, DispatcherStressTest, ::testing::ValuesIn(kStrategyNames.values()),
                         strategy_test_name);

}  // namespace
}  // namespace perflab::dispatcher
