// An Executor that records the calls it is given and never runs them, like the RecordingExecutor of
// OkHttp's DispatcherTest. After shutdown() it rejects every call. The behaviour tests and the micro
// workloads use it; finishing a recorded call is up to the caller.
//
// Not thread-safe, like OkHttp's: the behaviour tests and the micro workloads drive the Dispatcher from
// one thread (the stress test has a real thread pool), and a lock here would put a second mutex on every
// call of the timed workloads that the PR's benchmark did not have.
#pragma once

#include <vector>

#include "models/dispatcher/executor.h"

namespace perflab::dispatcher {

class RecordingExecutor : public Executor {
 public:
  Status execute(const CallPtr& call) override;

  void shutdown();
  // Every call accepted and not taken yet, in the order they were handed over.
  std::vector<CallPtr> calls() const;
  size_t call_count() const;
  // The call accepted in position `index` (0 = first); `index` must be below call_count().
  CallPtr call_at(size_t index) const;
  // Replaces `calls` with the calls recorded so far, in order, and forgets them: the two vectors swap
  // storage, so taking batches over and over does not allocate.
  void take_calls(std::vector<CallPtr>& calls);

 private:
  bool shut_down_ = false;
  std::vector<CallPtr> calls_;
};

}  // namespace perflab::dispatcher
