// Strategy "counter": OkHttp 3.13+ (the fix merged as PR #4581). Every async call holds a per-host
// counter of running calls that it shares with the other calls to its host: on enqueue the new call
// looks for a call to the same host (scanning the running calls, then the ready calls) and adopts its
// counter; promotion reads and increments it; finishing decrements it. The promote loop no longer scans
// the running list, but enqueue still scans both lists (quadratic with many distinct hosts) and a capped
// host with a backlog still makes every promotion walk the whole ready queue.
//
// As upstream (3.13.1 Dispatcher.java:217), finished(call) decrements the call's counter before it takes the
// dispatcher lock, so a promotion that runs between the two already sees the host's slot free while the
// finishing call is still in the running list; the counter is atomic, as upstream's AtomicInteger.
//
// One deliberate difference from upstream: findExistingCallWithHost skips WebSocket calls. Upstream does
// not, so an ordinary call can adopt a WebSocket call's counter and the WebSocket call then counts (and
// is capped) per host; the study requires WebSocket calls to be exempt in every strategy.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "models/dispatcher/okhttp_tracker.h"

namespace perflab::dispatcher {

// OkHttp's AsyncCall with its callsPerHost AtomicInteger.
struct CounterAsyncCall {
  CallPtr call;
  std::shared_ptr<std::atomic<int>> calls_per_host;
};

class CounterTracker : public OkHttpTracker<CounterTracker, CounterAsyncCall> {
 public:
  using OkHttpTracker::OkHttpTracker;

  void add_ready(CallPtr call, OpCounter& ops) override;
  void before_finished(const Call& call) override;

 private:
  friend OkHttpTracker;

  bool host_at_capacity(const CounterAsyncCall& ready, OpCounter& /*ops*/) const {
    return ready.calls_per_host->load(std::memory_order_relaxed) >= max_requests_per_host_;
  }
  // Also tells the Call where its counter is, for before_finished() (the counter lives while the call runs).
  void on_promoted(CounterAsyncCall& call);
  // The counter was decremented by before_finished(), before the lock.
  void on_finished(CounterAsyncCall& call);

  const CounterAsyncCall* find_existing_call_with_host(const std::string& host, OpCounter& ops) const;
};

}  // namespace perflab::dispatcher
