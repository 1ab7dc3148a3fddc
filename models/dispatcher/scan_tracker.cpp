// ScanTracker; see scan_tracker.h.
#include "models/dispatcher/scan_tracker.h"

namespace perflab::dispatcher {

void ScanTracker::add_ready(CallPtr call, OpCounter& ops) {
  ready_async_calls_.push_back(std::move(call));
  ops.visit();
}

void ScanTracker::promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) {
  for (auto it = ready_async_calls_.begin(); it != ready_async_calls_.end();) {
    ops.visit();
    if (running_async_calls_.size() >= static_cast<size_t>(max_requests)) {
      break;  // Max capacity.
    }
    const Call& call = **it;
    if (!call.for_web_socket() && running_calls_for_host(call, ops) >= max_requests_per_host_) {
      ++it;  // Host max capacity.
      continue;
    }
    promoted.push_back(*it);
    running_async_calls_.splice(running_async_calls_.end(), ready_async_calls_, it++);
    ops.visit();
  }
}

int ScanTracker::running_calls_for_host(const Call& call, OpCounter& ops) const {
  int result = 0;
  for (const CallPtr& running : running_async_calls_) {
    ops.visit();
    if (running->for_web_socket()) {
      continue;
    }
    if (running->host() == call.host()) {
      ++result;
    }
  }
  return result;
}

bool ScanTracker::remove_running(const Call& call, OpCounter& ops) {
  for (auto it = running_async_calls_.begin(); it != running_async_calls_.end(); ++it) {
    ops.visit();
    if (it->get() == &call) {
      running_async_calls_.erase(it);
      return true;
    }
  }
  return false;
}

void ScanTracker::set_max_requests_per_host(int max_requests_per_host, OpCounter&) {
  max_requests_per_host_ = max_requests_per_host;
}

std::vector<CallPtr> ScanTracker::ready_calls() const {
  return {ready_async_calls_.begin(), ready_async_calls_.end()};
}

std::vector<CallPtr> ScanTracker::running_calls() const {
  return {running_async_calls_.begin(), running_async_calls_.end()};
}

}  // namespace perflab::dispatcher
