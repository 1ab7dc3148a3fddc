// Where the Dispatcher sends calls it promoted: OkHttp's ExecutorService, as an interface the caller
// provides. A thread pool (tests), a recorder that never runs anything (behaviour tests, micro engine) or
// simulated worker threads (sim engine) all fit. Whoever runs a call must call Dispatcher::finished(call)
// when it is done.
#pragma once

#include "models/common/status.h"
#include "models/dispatcher/call.h"

namespace perflab::dispatcher {

class Executor {
 public:
  virtual ~Executor() = default;

  // Accepts `call` to be run later or on another thread. Never called with the dispatcher lock held, so
  // it may call back into the Dispatcher. A non-OK status means the call was rejected (e.g. the executor
  // is shut down): the Dispatcher then fails the call with an interrupted-I/O error and finishes it.
  virtual Status execute(const CallPtr& call) = 0;
};

}  // namespace perflab::dispatcher
