// Randomised differential test: long seeded sequences of enqueues (many hosts, some WebSocket calls),
// finishes, cancels, sync calls, limit changes and executor rejections, replayed on one Dispatcher per
// strategy. After every step all three must have handed the same calls to the executor in the same
// order, failed the same calls, and hold the same ready, running and sync lists.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/dispatcher/dispatcher.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher {
namespace {

// Records accepted calls; rejects while `rejecting` is set.
class SwitchableExecutor : public Executor {
 public:
  Status execute(const CallPtr& call) override {
    if (rejecting) {
      return Status::Error("executor is shut down");
    }
    accepted.push_back(call->name());
    return Status::OK();
  }
  bool rejecting = false;
  std::vector<std::string> accepted;
};

struct Replica {
  explicit Replica(Strategy strategy) : dispatcher(executor, strategy) {
    dispatcher.set_idle_callback([this] { ++idle_callbacks; });
  }
  SwitchableExecutor executor;
  Dispatcher dispatcher;
  std::vector<std::string> failed;
  std::vector<CallPtr> sync_calls;
  int idle_callbacks = 0;
};

class DispatcherDifferentialTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  DispatcherDifferentialTest() {
    for (Strategy strategy : kAllStrategies) {
      replicas_.push_back(std::make_unique<Replica>(strategy));
    }
  }

  void enqueue(const std::string& host, bool web_socket) {
    const std::string name = host + "/" + std::to_string(next_call_++);
    for (auto& replica : replicas_) {
      Replica* r = replica.get();
      auto record = [r](const Call& call, const Status&) { r->failed.push_back(call.name()); };
      CallPtr call =
          web_socket ? Call::CreateWebSocket(host, name, record) : Call::Create(host, name, record);
      ASSERT_TRUE(r->dispatcher.enqueue(call).ok());
    }
  }

  // Finishes the running call at `index` of the reference replica's running list, in every replica.
  void finish_running(size_t index) {
    for (auto& replica : replicas_) {
      std::vector<CallPtr> running = replica->dispatcher.running_async_calls();
      ASSERT_LT(index, running.size());
      ASSERT_TRUE(replica->dispatcher.finished(*running[index]).ok());
    }
  }

  void cancel_call(size_t index) {
    for (auto& replica : replicas_) {
      std::vector<CallPtr> calls = replica->dispatcher.ready_async_calls();
      for (const CallPtr& call : replica->dispatcher.running_async_calls()) {
        calls.push_back(call);
      }
      ASSERT_LT(index, calls.size());
      calls[index]->cancel();
    }
  }

  void expect_replicas_agree(int step) {
    const Replica& reference = *replicas_.front();
    const auto ready = names_of(reference.dispatcher.ready_async_calls());
    const auto running = names_of(reference.dispatcher.running_async_calls());
    const auto sync = names_of(reference.dispatcher.running_sync_calls());
    for (size_t i = 1; i < replicas_.size(); ++i) {
      const Replica& other = *replicas_[i];
      const std::string where = "step " + std::to_string(step) + ", strategy " +
                                std::string(strategy_name(other.dispatcher.strategy())) + " vs scan";
      ASSERT_EQ(other.executor.accepted, reference.executor.accepted) << where;
      ASSERT_EQ(other.failed, reference.failed) << where;
      ASSERT_EQ(names_of(other.dispatcher.ready_async_calls()), ready) << where;
      ASSERT_EQ(names_of(other.dispatcher.running_async_calls()), running) << where;
      ASSERT_EQ(names_of(other.dispatcher.running_sync_calls()), sync) << where;
      ASSERT_EQ(other.idle_callbacks, reference.idle_callbacks) << where;
      ASSERT_EQ(other.dispatcher.queued_calls_count(), ready.size()) << where;
      ASSERT_EQ(other.dispatcher.running_calls_count(), running.size() + sync.size()) << where;
    }
  }

  std::vector<std::unique_ptr<Replica>> replicas_;
  int next_call_ = 0;
};

TEST_P(DispatcherDifferentialTest, AllStrategiesPromoteTheSameCallsInTheSameOrder) {
  constexpr int kSteps = 6000;
  constexpr int kHosts = 40;
  std::mt19937_64 random(GetParam());
  auto chance = [&random](double p) { return std::bernoulli_distribution(p)(random); };
  auto pick = [&random](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random); };
  // A skewed host popularity: a few hot hosts that hit their cap, a long tail of rare ones.
  std::geometric_distribution<int> host_rank(0.15);
  size_t peak_ready = 0;

  for (int step = 0; step < kSteps; ++step) {
    Replica& reference = *replicas_.front();
    const size_t running = reference.dispatcher.running_async_calls().size();
    const size_t ready = reference.dispatcher.queued_calls_count();
    const double roll = std::uniform_real_distribution<double>(0, 1)(random);

    if (roll < 0.45) {
      const bool web_socket = chance(0.08);
      enqueue("h" + std::to_string(host_rank(random) % kHosts), web_socket);
    } else if (roll < 0.83) {
      if (running > 0) {
        finish_running(chance(0.7) ? 0 : pick(running));
      }
    } else if (roll < 0.87) {
      if (running + ready > 0) {
        cancel_call(pick(running + ready));
      }
    } else if (roll < 0.90) {
      const int max_requests = 1 + static_cast<int>(pick(24));
      for (auto& replica : replicas_) {
        ASSERT_TRUE(replica->dispatcher.set_max_requests(max_requests).ok());
      }
    } else if (roll < 0.93) {
      const int per_host = 1 + static_cast<int>(pick(6));
      for (auto& replica : replicas_) {
        ASSERT_TRUE(replica->dispatcher.set_max_requests_per_host(per_host).ok());
      }
    } else if (roll < 0.97) {
      const bool start = reference.sync_calls.empty() || chance(0.5);
      const size_t which = start ? 0 : pick(reference.sync_calls.size());
      for (auto& replica : replicas_) {
        if (start) {
          replica->sync_calls.push_back(Call::Create("s", "sync/" + std::to_string(step)));
          ASSERT_TRUE(replica->dispatcher.executed(replica->sync_calls.back()).ok());
        } else {
          ASSERT_TRUE(replica->dispatcher.finished_sync(*replica->sync_calls[which]).ok());
          replica->sync_calls.erase(replica->sync_calls.begin() + static_cast<std::ptrdiff_t>(which));
        }
      }
    } else {
      const bool rejecting = chance(0.15);
      for (auto& replica : replicas_) {
        replica->executor.rejecting = rejecting;
      }
    }
    expect_replicas_agree(step);
    if (HasFatalFailure()) {
      return;
    }
    peak_ready = std::max(peak_ready, reference.dispatcher.queued_calls_count());
  }
  const Replica& reference = *replicas_.front();
  RecordProperty("executed", static_cast<int>(reference.executor.accepted.size()));
  RecordProperty("failed", static_cast<int>(reference.failed.size()));
  RecordProperty("peak_ready", static_cast<int>(peak_ready));
  EXPECT_GT(reference.executor.accepted.size(), 1000u) << "the sequence should exercise promotion";
  EXPECT_GT(reference.failed.size(), 10u) << "the sequence should exercise rejection";
}

INSTANTIATE_TEST_SUITE_P(Seeds, DispatcherDifferentialTest, ::testing::Values(1, 2, 3, 4, 5, 6, 7, 8));

}  // namespace
}  // namespace perflab::dispatcher
