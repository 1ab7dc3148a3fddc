// Strategy "counter": OkHttp 3.13+ (the fix merged as PR #4581). Every async call holds a per-host
// counter of running calls that it shares with the other calls to its host: on enqueue the new call
// looks for a call to the same host (scanning the running calls, then the ready calls) and adopts its
// counter; promotion reads and increments it; finishing decrements it. The promote loop no longer scans
// the running list, but enqueue still scans both lists (quadratic with many distinct hosts) and a capped
// host with a backlog still makes every promotion walk the whole ready queue.
//
// One deliberate difference from upstream: findExistingCallWithHost skips WebSocket calls. Upstream does
// not, so an ordinary call can adopt a WebSocket call's counter and the WebSocket call then counts (and
// is capped) per host; the study requires WebSocket calls to be exempt in every strategy.
#pragma once

#include <list>
#include <memory>
#include <string>

#include "models/dispatcher/async_call_tracker.h"

namespace perflab::dispatcher {

class CounterTracker : public AsyncCallTracker {
 public:
  explicit CounterTracker(int max_requests_per_host) : max_requests_per_host_(max_requests_per_host) {}

  void add_ready(CallPtr call, OpCounter& ops) override;
  void promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) override;
  bool remove_running(const Call& call, OpCounter& ops) override;
  void set_max_requests_per_host(int max_requests_per_host, OpCounter& ops) override;

  size_t ready_count() const override { return ready_async_calls_.size(); }
  size_t running_count() const override { return running_async_calls_.size(); }
  std::vector<CallPtr> ready_calls() const override;
  std::vector<CallPtr> running_calls() const override;

 private:
  // OkHttp's AsyncCall with its callsPerHost AtomicInteger (a plain int: the dispatcher lock guards it).
  struct AsyncCall {
    CallPtr call;
    std::shared_ptr<int> calls_per_host;
  };

  const AsyncCall* find_existing_call_with_host(const std::string& host, OpCounter& ops) const;

  int max_requests_per_host_;
  std::list<AsyncCall> ready_async_calls_;
  std::list<AsyncCall> running_async_calls_;
};

}  // namespace perflab::dispatcher
