// CounterTracker; see counter_tracker.h.
#include "models/dispatcher/counter_tracker.h"

namespace perflab::dispatcher {

void CounterTracker::add_ready(CallPtr call, OpCounter& ops) {
  const bool for_web_socket = call->for_web_socket();
  ready_async_calls_.push_back({std::move(call), std::make_shared<int>(0)});
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
