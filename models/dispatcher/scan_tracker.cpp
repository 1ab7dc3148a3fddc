// ScanTracker; see scan_tracker.h.
#include "models/dispatcher/scan_tracker.h"

namespace perflab::dispatcher {

void ScanTracker::add_ready(CallPtr call, OpCounter& ops) {
  ready_async_calls_.push_back({std::move(call)});
  ops.visit();
}

bool ScanTracker::host_at_capacity(const ScanAsyncCall& ready, OpCounter& ops) const {
  const Call& call = *ready.call;
  return !call.for_web_socket() && running_calls_for_host(call, ops) >= max_requests_per_host_;
}

int ScanTracker::running_calls_for_host(const Call& call, OpCounter& ops) const {
  int result = 0;
  for (const ScanAsyncCall& running : running_async_calls_) {
    ops.visit();
    if (running.call->for_web_socket()) {
      continue;
    }
    if (running.call->host() == call.host()) {
      ++result;
    }
  }
  return result;
}

}  // namespace perflab::dispatcher
