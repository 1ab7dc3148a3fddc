// Strategy "scan": OkHttp 3.12.0, before PR #4581. For every ready call it examines, promoteAndExecute()
// counts that host's running calls by walking the whole running list (runningCallsForHost), so one
// promotion pass costs O(ready x running).
//
// One deliberate difference from 3.12.0: a ready WebSocket call is not checked against the per-host
// limit at all. 3.12.0 skipped WebSocket calls when counting but still capped a WebSocket call by the
// ordinary calls to its host; the study requires all strategies to agree, and 3.13+ never caps them.
#pragma once

#include <list>

#include "models/dispatcher/async_call_tracker.h"

namespace perflab::dispatcher {

class ScanTracker : public AsyncCallTracker {
 public:
  explicit ScanTracker(int max_requests_per_host) : max_requests_per_host_(max_requests_per_host) {}

  void add_ready(CallPtr call, OpCounter& ops) override;
  void promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) override;
  bool remove_running(const Call& call, OpCounter& ops) override;
  void set_max_requests_per_host(int max_requests_per_host, OpCounter& ops) override;

  size_t ready_count() const override { return ready_async_calls_.size(); }
  size_t running_count() const override { return running_async_calls_.size(); }
  std::vector<CallPtr> ready_calls() const override;
  std::vector<CallPtr> running_calls() const override;

 private:
  int running_calls_for_host(const Call& call, OpCounter& ops) const;

  int max_requests_per_host_;
  std::list<CallPtr> ready_async_calls_;
  std::list<CallPtr> running_async_calls_;
};

}  // namespace perflab::dispatcher
