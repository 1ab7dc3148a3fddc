// What an incident run reports, from its monitor — simulated (simulated_monitor.h) or real
// (real_monitor.h), the two have the same accessors — its calls' latencies and when the last one finished:
// one place for both engines' IncidentResult.
#pragma once

#include <cstdint>
#include <vector>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/stats/stats.h"

namespace perflab::dispatcher_study {

template <class Monitor>
IncidentResult incident_result(const Monitor& monitor, const std::vector<double>& latencies,
                               double last_finish_s) {
  return IncidentResult{static_cast<double>(latencies.size()) / last_finish_s,
                        stats::quantile(latencies, 0.50),
                        stats::quantile(latencies, 0.99),
                        monitor.hold_max(),
                        monitor.hold_total(),
                        monitor.wait_total(),
                        static_cast<int64_t>(monitor.blocked_max()),
                        static_cast<int64_t>(monitor.acquisitions()),
                        static_cast<int64_t>(monitor.ops_total()),
                        monitor.tally(),
                        last_finish_s};
}

}  // namespace perflab::dispatcher_study
