// The incident's arrivals (scenarios/dispatcher/arrivals.h), which the sim and the real engine both draw:
// the same streams give the same calls, and given the same calls in the same order, with calls finishing in
// the order they started, scan, counter and indexed promote the same calls in the same order. So what
// separates the strategies in the incident (sim or real) is the time their locked sections take, not
// which calls they run.
#include <deque>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/recording_executor.h"
#include "scenarios/dispatcher/arrivals.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher_study {
namespace {

using dispatcher::Call;
using dispatcher::CallPtr;
using dispatcher::Strategy;

constexpr int kCalls = 2000;
constexpr int kHosts = 20;

std::vector<PoissonArrivals::Arrival> draw(uint64_t seed) {
  PoissonArrivals arrivals(6000, kHosts, 1.1, Rng(seed), Rng(seed + 1000));
  std::vector<PoissonArrivals::Arrival> out;
  for (int i = 0; i < kCalls; ++i) out.push_back(arrivals.next());
  return out;
}

// The calls in the order the executor got them: after every third arrival the longest-running call
// finishes; at the end the rest, oldest first.
std::vector<std::string> promotions(Strategy strategy,
                                    const std::vector<PoissonArrivals::Arrival>& arrivals) {
  dispatcher::RecordingExecutor executor;
  dispatcher::Dispatcher dispatcher(executor, strategy);
  EXPECT_TRUE(dispatcher.set_max_requests(64).ok());
  EXPECT_TRUE(dispatcher.set_max_requests_per_host(8).ok());
  std::vector<std::string> order;
  std::deque<CallPtr> running;
  std::vector<CallPtr> batch;
  auto collect = [&] {
    executor.take_calls(batch);
    for (const auto& call : batch) {
      order.push_back(call->name());
      running.push_back(call);
    }
  };
  auto finish_oldest = [&] {
    EXPECT_TRUE(dispatcher.finished(*running.front()).ok());
    running.pop_front();
    collect();
  };
  for (size_t i = 0; i < arrivals.size(); ++i) {
    EXPECT_TRUE(
        dispatcher
            .enqueue(Call::Create("host-" + std::to_string(arrivals[i].host), "call-" + std::to_string(i)))
            .ok());
    collect();
    if (i % 3 == 2 && !running.empty()) finish_oldest();
  }
  while (!running.empty()) finish_oldest();
  return order;
}

TEST(IncidentArrivals, TheSameStreamsDrawTheSameCalls) {
  auto a = draw(7), b = draw(7), c = draw(8);
  bool differ = false;
  for (int i = 0; i < kCalls; ++i) {
    EXPECT_EQ(a[i].gap_s, b[i].gap_s);
    EXPECT_EQ(a[i].host, b[i].host);
    EXPECT_GT(a[i].gap_s, 0);
    EXPECT_GE(a[i].host, 0);
    EXPECT_LT(a[i].host, kHosts);
    differ = differ || a[i].host != c[i].host;
  }
  EXPECT_TRUE(differ);
}

TEST(IncidentArrivals, EveryStrategyPromotesTheSameCallsInTheSameOrder) {
  for (uint64_t seed : {1, 2, 3}) {
    const auto arrivals = draw(seed);
    const auto scan = promotions(Strategy::kScan, arrivals);
    ASSERT_EQ(scan.size(), static_cast<size_t>(kCalls));
    EXPECT_EQ(promotions(Strategy::kCounter, arrivals), scan) << "seed " << seed;
    EXPECT_EQ(promotions(Strategy::kIndexed, arrivals), scan) << "seed " << seed;
  }
}

}  // namespace
}  // namespace perflab::dispatcher_study
