// Helpers shared by the dispatcher tests: call names as strings, so expectations read like OkHttp's
// DispatcherTest ("a/1", "b/2"), the strategy name for parameterised test names, and the lock check.
#pragma once

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/dispatcher/call.h"
#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/strategy.h"

namespace perflab::dispatcher {

inline std::vector<std::string> names_of(const std::vector<CallPtr>& calls) {
  std::vector<std::string> names;
  names.reserve(calls.size());
  for (const CallPtr& call : calls) names.push_back(call->name());
  return names;
}

inline std::string strategy_test_name(const ::testing::TestParamInfo<Strategy>& info) {
  return std::string(kStrategyNames.name(info.param));
}

// OkHttp's tests assert !Thread.holdsLock(dispatcher) in every callback (RecordingEventListener.java
// 3.13.0 line 69, Dispatcher.java line 183, RealCall.java line 189). A std::mutex cannot say who holds it,
// so ask from outside: another thread takes the dispatcher's lock (through a locking accessor) and must get
// it while the calling thread waits. Had the caller held the lock, the probe could only finish after the
// callback returned; it is detached so that a failing check fails instead of hanging.
inline bool dispatcher_lock_is_free(const Dispatcher& dispatcher) {
  auto got_it = std::make_shared<std::promise<void>>();
  std::future<void> got = got_it->get_future();
  std::thread([&dispatcher, got_it] {
    (void)dispatcher.queued_calls_count();
    got_it->set_value();
  }).detach();
  return got.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
}

}  // namespace perflab::dispatcher
