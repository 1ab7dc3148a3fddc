// The internal interface between the Dispatcher and a strategy: the ready queue and the running list of
// async calls (OkHttp's readyAsyncCalls / runningAsyncCalls) together with the per-host bookkeeping that
// decides which ready calls may run. The Dispatcher holds its lock around every call into a tracker;
// trackers are not thread-safe on their own. Every strategy promotes exactly the same calls in the same
// order; they differ only in how much they touch doing it (counted in an OpCounter).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "models/dispatcher/call.h"
#include "models/dispatcher/op_counter.h"
#include "models/dispatcher/strategy.h"

namespace perflab::dispatcher {

class AsyncCallTracker {
 public:
  virtual ~AsyncCallTracker() = default;

  // readyAsyncCalls.add(call), plus the strategy's per-host bookkeeping for a new call.
  virtual void add_ready(CallPtr call, OpCounter& ops) = 0;

  // The loop of promoteAndExecute(): walk the ready calls in FIFO order, stop once `max_requests` calls
  // are running, skip a call whose host already runs max_requests_per_host calls (WebSocket calls are
  // never skipped and never counted per host), move the others to running and append them to `promoted`.
  virtual void promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) = 0;

  // What OkHttp's finished(AsyncCall) does before it takes the lock (3.13.1, Dispatcher.java:217: the
  // call's callsPerHost.decrementAndGet(), then finished(runningAsyncCalls, call) locks at 228): called
  // without the Dispatcher's lock, by the thread that is finishing a running `call`. Nothing by default.
  virtual void before_finished(const Call& /*call*/) {}

  // Removes `call` from the running calls; false if it was not running.
  virtual bool remove_running(const Call& call, OpCounter& ops) = 0;

  virtual void set_max_requests_per_host(int max_requests_per_host, OpCounter& ops) = 0;

  virtual size_t ready_count() const = 0;
  virtual size_t running_count() const = 0;
  // Snapshots: ready calls in FIFO order, running calls in the order they were promoted.
  virtual std::vector<CallPtr> ready_calls() const = 0;
  virtual std::vector<CallPtr> running_calls() const = 0;
};

std::unique_ptr<AsyncCallTracker> make_async_call_tracker(Strategy strategy, int max_requests_per_host);

}  // namespace perflab::dispatcher
