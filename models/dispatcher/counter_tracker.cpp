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
  AsyncCall& added = ready_async_calls_.back();
  // As upstream, the search may find the call just added (harmlessly sharing its own counter).
  if (const AsyncCall* existing = find_existing_call_with_host(added.call->host(), ops)) {
    added.calls_per_host = existing->calls_per_host;
  }
}

const CounterTracker::AsyncCall* CounterTracker::find_existing_call_with_host(const std::string& host,
                                                                              OpCounter& ops) const {
  for (const std::list<AsyncCall>* calls : {&running_async_calls_, &ready_async_calls_}) {
    for (const AsyncCall& existing : *calls) {
      ops.visit();
      if (!existing.call->for_web_socket() && existing.call->host() == host) {
        return &existing;
      }
    }
  }
  return nullptr;
}

void CounterTracker::promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) {
  for (auto it = ready_async_calls_.begin(); it != ready_async_calls_.end();) {
    ops.visit();
    if (running_async_calls_.size() >= static_cast<size_t>(max_requests)) {
      break;  // Max capacity.
    }
    if (*it->calls_per_host >= max_requests_per_host_) {
      ++it;  // Host max capacity.
      continue;
    }
    ++*it->calls_per_host;
    promoted.push_back(it->call);
    running_async_calls_.splice(running_async_calls_.end(), ready_async_calls_, it++);
    ops.visit();
  }
}

bool CounterTracker::remove_running(const Call& call, OpCounter& ops) {
  for (auto it = running_async_calls_.begin(); it != running_async_calls_.end(); ++it) {
    ops.visit();
    if (it->call.get() == &call) {
      --*it->calls_per_host;
      running_async_calls_.erase(it);
      return true;
    }
  }
  return false;
}

void CounterTracker::set_max_requests_per_host(int max_requests_per_host, OpCounter&) {
  max_requests_per_host_ = max_requests_per_host;
}

std::vector<CallPtr> CounterTracker::ready_calls() const {
  std::vector<CallPtr> calls;
  calls.reserve(ready_async_calls_.size());
  for (const AsyncCall& async_call : ready_async_calls_) {
    calls.push_back(async_call.call);
  }
  return calls;
}

std::vector<CallPtr> CounterTracker::running_calls() const {
  std::vector<CallPtr> calls;
  calls.reserve(running_async_calls_.size());
  for (const AsyncCall& async_call : running_async_calls_) {
    calls.push_back(async_call.call);
  }
  return calls;
}

}  // namespace perflab::dispatcher
