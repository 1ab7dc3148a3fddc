// Randomised differential test: long seeded sequences of enqueues (many hosts, some WebSocket calls),
// finishes, cancels, sync calls, limit changes and executor rejections, replayed on one Dispatcher per
// strategy. After every step all three must have handed the same calls to the executor in the same
// order, failed the same calls, and hold the same ready, running and sync lists.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/dispatcher/dispatcher.h"
#include "tests/dispatcher/op_script.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher {
namespace {

class DispatcherDifferentialTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  DispatcherDifferentialTest() {
    for (Strategy strategy : kStrategyNames.values()) {
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
                                std::string(kStrategyNames.name(other.dispatcher.strategy())) + " vs scan";
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
  OpScript script(GetParam(), kHosts);
  size_t peak_ready = 0;

  for (int step = 0; step < kSteps; ++step) {
    Replica& reference = *replicas_.front();
    const Op op = script.next(reference.dispatcher.running_async_calls().size(),
                              reference.dispatcher.queued_calls_count(), reference.sync_calls.size());
    switch (op.kind) {
      case Op::kEnqueue:
        enqueue(op.host, op.web_socket);
        break;
      case Op::kFinish:
        finish_running(op.index);
        break;
      case Op::kCancel:
        cancel_call(op.index);
        break;
      case Op::kMaxRequests:
        for (auto& replica : replicas_) ASSERT_TRUE(replica->dispatcher.set_max_requests(op.limit).ok());
        break;
      case Op::kMaxPerHost:
        for (auto& replica : replicas_) {
          ASSERT_TRUE(replica->dispatcher.set_max_requests_per_host(op.limit).ok());
        }
        break;
      case Op::kExecuteSync:
        for (auto& replica : replicas_) {
          replica->sync_calls.push_back(Call::Create("s", "sync/" + std::to_string(step)));
          ASSERT_TRUE(replica->dispatcher.executed(replica->sync_calls.back()).ok());
        }
        break;
      case Op::kFinishSync:
        for (auto& replica : replicas_) {
          ASSERT_TRUE(replica->dispatcher.finished_sync(*replica->sync_calls[op.index]).ok());
          replica->sync_calls.erase(replica->sync_calls.begin() + static_cast<std::ptrdiff_t>(op.index));
        }
        break;
      case Op::kRejecting:
        for (auto& replica : replicas_) replica->executor.rejecting = op.rejecting;
        break;
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
