// Helpers shared by the dispatcher tests: call names as strings, so expectations read like OkHttp's
// DispatcherTest ("a/1", "b/2"), and the strategy name for parameterised test names.
#pragma once

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/dispatcher/call.h"
#include "models/dispatcher/strategy.h"

namespace perflab::dispatcher {

inline std::vector<std::string> names_of(const std::vector<CallPtr>& calls) {
  std::vector<std::string> names;
  names.reserve(calls.size());
  for (const CallPtr& call : calls) names.push_back(call->name());
  return names;
}

inline std::string strategy_test_name(const ::testing::TestParamInfo<Strategy>& info) {
  return std::string(strategy_name(info.param));
}

}  // namespace perflab::dispatcher
