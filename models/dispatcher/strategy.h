// The three ways the Dispatcher can keep per-host bookkeeping, chosen when it is constructed, and their
// names as scenario files and the CLI spell them ("scan", "counter", "indexed").
#pragma once

#include <string_view>

#include "models/common/status.h"

namespace perflab::dispatcher {

enum class Strategy {
  kScan,     // OkHttp 3.12.0: count a host's running calls by scanning runningAsyncCalls, per ready call.
  kCounter,  // OkHttp 3.13+ (PR #4581): a per-host counter shared by the calls to a host.
  kIndexed,  // perflab: per-host queues and an ordered set of eligible queue heads, O(log H) per promotion.
};

inline constexpr Strategy kAllStrategies[] = {Strategy::kScan, Strategy::kCounter, Strategy::kIndexed};

std::string_view strategy_name(Strategy strategy);
Result<Strategy> parse_strategy(std::string_view name);

}  // namespace perflab::dispatcher
