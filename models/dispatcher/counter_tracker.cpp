// CounterTracker; see counter_tracker.h.
#include "models/dispatcher/counter_tracker.h"

namespace perflab::dispatcher {

void CounterTracker::add_ready(CallPtr call, OpCounter& ops) {
  const bool for_web_socket = call->for_web_socket();
  ready_async_calls_.push_back({std::move(call), std::make_shared<std::atomic<int>>(0)});
  ops.visit();
  if (for_web_socket) {
    return;
  }
  CounterAsyncCall& added = ready_async_calls_.back();
  // As upstream, the search may find the call just added (harmlessly sharing its own counter).
  if (const CounterAsyncCall* existing = find_existing_call_with_host(added.call->host(), ops)) {
    added.calls_per_host = existing->calls_per_host;
  }
}

void CounterTracker::on_promoted(CounterAsyncCall& call) {
  call.calls_per_host->fetch_add(1, std::memory_order_relaxed);
  call.call->tracker_word_.store(reinterpret_cast<std::uintptr_t>(call.calls_per_host.get()),
                                 std::memory_order_release);
}

void CounterTracker::before_finished(const Call& call) {
  // Null unless the call is running (the running list's element keeps the counter alive until the
  // finishing thread removes it): finishing a call that is not running changes no counter.
  if (auto* counter =
          reinterpret_cast<std::atomic<int>*>(call.tracker_word_.load(std::memory_order_acquire))) {
    counter->fetch_sub(1, std::memory_order_relaxed);
  }
}

void CounterTracker::on_finished(CounterAsyncCall& call) {
  call.call->tracker_word_.store(0, std::memory_order_release);
}

const CounterAsyncCall* CounterTracker::find_existing_call_with_host(const std::string& host,
                                                                     OpCounter& ops) const {
  for (const std::list<CounterAsyncCall>* calls : {&running_async_calls_, &ready_async_calls_}) {
    for (const CounterAsyncCall& existing : *calls) {
      ops.visit();
      if (!existing.call->for_web_socket() && existing.call->host() == host) {
        return &existing;
      }
    }
  }
  return nullptr;
}

}  // namespace perflab::dispatcher
