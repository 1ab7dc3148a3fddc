// The random op scripts of the differential tests (differential_test.cpp: the three C++ strategies
// against each other; okhttp_differential_test.cpp: against the real OkHttp 3.13.1): a seeded generator of
// dispatcher operations, and the C++ replicas they are applied to, one per strategy.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/executor.h"

namespace perflab::dispatcher {

struct Op {
  enum Kind { kEnqueue, kFinish, kCancel, kMaxRequests, kMaxPerHost, kExecuteSync, kFinishSync, kRejecting };
  Kind kind = kEnqueue;
  std::string host;         // kEnqueue
  bool web_socket = false;  // kEnqueue
  size_t index = 0;        // kFinish: in the running async calls; kCancel: in ready then running; kFinishSync
  int limit = 0;           // kMaxRequests, kMaxPerHost
  bool rejecting = false;  // kRejecting
};

// Draws the next op from the state of the dispatcher it will be applied to. Hosts are "h0".."h<hosts-1>"
// with a skewed popularity: a few hot hosts that hit their cap, a long tail of rare ones; a fraction
// `web_sockets` of the enqueued calls are WebSocket calls.
class OpScript {
 public:
  OpScript(uint64_t seed, int hosts, double web_sockets = 0.08)
      : random_(seed), hosts_(hosts), web_sockets_(web_sockets) {}

  Op next(size_t running_async, size_t ready, size_t running_sync) {
    const double roll = std::uniform_real_distribution<double>(0, 1)(random_);
    Op op;
    op.kind = Op::kEnqueue;
    if (roll < 0.45) {
      op.web_socket = chance(web_sockets_);
      op.host = "h" + std::to_string(host_rank_(random_) % hosts_);
    } else if (roll < 0.83) {
      if (running_async == 0) return next(running_async, ready, running_sync);
      op.kind = Op::kFinish;
      op.index = chance(0.7) ? 0 : pick(running_async);
    } else if (roll < 0.87) {
      if (running_async + ready == 0) return next(running_async, ready, running_sync);
      op.kind = Op::kCancel;
      op.index = pick(running_async + ready);
    } else if (roll < 0.90) {
      op.kind = Op::kMaxRequests;
      op.limit = 1 + static_cast<int>(pick(24));
    } else if (roll < 0.93) {
      op.kind = Op::kMaxPerHost;
      op.limit = 1 + static_cast<int>(pick(6));
    } else if (roll < 0.97) {
      const bool start = running_sync == 0 || chance(0.5);
      op.kind = start ? Op::kExecuteSync : Op::kFinishSync;
      op.index = start ? 0 : pick(running_sync);
    } else {
      op.kind = Op::kRejecting;
      op.rejecting = chance(0.15);
    }
    return op;
  }

 private:
  bool chance(double p) { return std::bernoulli_distribution(p)(random_); }
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }

  std::mt19937_64 random_;
  int hosts_;
  double web_sockets_;
  std::geometric_distribution<int> host_rank_{0.15};
};

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

// One strategy's Dispatcher with everything a differential test compares.
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

}  // namespace perflab::dispatcher
