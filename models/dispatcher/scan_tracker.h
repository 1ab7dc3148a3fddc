// Strategy "scan": OkHttp 3.12.0, before PR #4581. For every ready call it examines, promoteAndExecute()
// counts that host's running calls by walking the whole running list (runningCallsForHost), so one
// promotion pass costs O(ready x running).
//
// One deliberate difference from 3.12.0: a ready WebSocket call is not checked against the per-host
// limit at all. 3.12.0 skipped WebSocket calls when counting but still capped a WebSocket call by the
// ordinary calls to its host; the study requires all strategies to agree, and 3.13+ never caps them.
#pragma once

#include "models/dispatcher/okhttp_tracker.h"

namespace perflab::dispatcher {

// OkHttp 3.12's AsyncCall: the call and nothing else.
struct ScanAsyncCall {
  CallPtr call;
};

class ScanTracker : public OkHttpTracker<ScanTracker, ScanAsyncCall> {
 public:
  using OkHttpTracker::OkHttpTracker;

  void add_ready(CallPtr call, OpCounter& ops) override;

 private:
  friend OkHttpTracker;

  bool host_at_capacity(const ScanAsyncCall& ready, OpCounter& ops) const;
  void on_promoted(ScanAsyncCall& /*call*/) {}
  void on_finished(ScanAsyncCall& /*call*/) {}

  int running_calls_for_host(const Call& call, OpCounter& ops) const;
};

}  // namespace perflab::dispatcher
