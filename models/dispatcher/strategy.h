// The three ways the Dispatcher can keep per-host bookkeeping, chosen when it is constructed, and the table
// of their names as scenario files and the CLI spell them ("scan", "counter", "indexed").
#pragma once

#include "models/common/enum_names.h"

namespace perflab::dispatcher {

enum class Strategy {
  kScan,     // OkHttp 3.12.0: count a host's running calls by scanning runningAsyncCalls, per ready call.
  kCounter,  // OkHttp 3.13+ (PR #4581): a per-host counter shared by the calls to a host.
  kIndexed,  // perflab: per-host queues and an ordered set of eligible queue heads, O(log H) per promotion.
};

inline const EnumNames<Strategy> kStrategyNames{
    "dispatcher strategy",
    {{Strategy::kScan, "scan"}, {Strategy::kCounter, "counter"}, {Strategy::kIndexed, "indexed"}}};

}  // namespace perflab::dispatcher
