// OkHttpTracker: what the trackers of the two OkHttp versions share (strategy "scan", 3.12.0, and
// strategy "counter", 3.13+ with PR #4581). Both keep Dispatcher's two lists, readyAsyncCalls and
// runningAsyncCalls, and run the same loops over them; the PR changed only how promoteAndExecute() learns
// that a call's host is at its cap, and what a call carries to make that cheap:
//
//   promoteAndExecute():
//     for each call in readyAsyncCalls, in FIFO order:
//       if runningAsyncCalls.size() >= maxRequests: break     // Max capacity.
//       if <the call's host is at capacity>: continue         // Host max capacity. (the versions differ)
//       move the call to runningAsyncCalls; promote it
//   finished(call): remove it from runningAsyncCalls
//
// A version derives as `class ScanTracker : public OkHttpTracker<ScanTracker, ScanAsyncCall>`, where the
// list element (that version's AsyncCall) holds at least `CallPtr call`; the hooks are resolved at compile
// time, so the loops cost what hand-written ones do. It implements add_ready and provides
//   bool host_at_capacity(const AsyncCall& ready, OpCounter& ops) const;
//   void on_promoted(AsyncCall& call);  // the call moved to running
//   void on_finished(AsyncCall& call);  // the call is leaving running
#pragma once

#include <list>
#include <vector>

#include "models/dispatcher/async_call_tracker.h"

namespace perflab::dispatcher {

template <typename Version, typename AsyncCall>
class OkHttpTracker : public AsyncCallTracker {
 public:
  explicit OkHttpTracker(int max_requests_per_host) : max_requests_per_host_(max_requests_per_host) {}

  void promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) override {
    for (auto it = ready_async_calls_.begin(); it != ready_async_calls_.end();) {
      ops.visit();
      if (running_async_calls_.size() >= static_cast<size_t>(max_requests)) {
        break;  // Max capacity.
      }
      if (version().host_at_capacity(*it, ops)) {
        ++it;  // Host max capacity.
        continue;
      }
      version().on_promoted(*it);
      promoted.push_back(it->call);
      running_async_calls_.splice(running_async_calls_.end(), ready_async_calls_, it++);
      ops.visit();
    }
  }

  bool remove_running(const Call& call, OpCounter& ops) override {
    for (auto it = running_async_calls_.begin(); it != running_async_calls_.end(); ++it) {
      ops.visit();
      if (it->call.get() == &call) {
        version().on_finished(*it);
        running_async_calls_.erase(it);
        return true;
      }
    }
    return false;
  }

  void set_max_requests_per_host(int max_requests_per_host, OpCounter& /*ops*/) override {
    max_requests_per_host_ = max_requests_per_host;
  }

  size_t ready_count() const override { return ready_async_calls_.size(); }
  size_t running_count() const override { return running_async_calls_.size(); }
  std::vector<CallPtr> ready_calls() const override { return calls_of(ready_async_calls_); }
  std::vector<CallPtr> running_calls() const override { return calls_of(running_async_calls_); }

 protected:
  int max_requests_per_host_;
  std::list<AsyncCall> ready_async_calls_;
  std::list<AsyncCall> running_async_calls_;

 private:
  Version& version() { return static_cast<Version&>(*this); }

  static std::vector<CallPtr> calls_of(const std::list<AsyncCall>& async_calls) {
    std::vector<CallPtr> calls;
    calls.reserve(async_calls.size());
    for (const AsyncCall& async_call : async_calls) calls.push_back(async_call.call);
    return calls;
  }
};

}  // namespace perflab::dispatcher
