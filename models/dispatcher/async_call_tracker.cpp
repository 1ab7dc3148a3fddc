// The strategy factory; see async_call_tracker.h.
#include "models/dispatcher/async_call_tracker.h"

#include "models/dispatcher/counter_tracker.h"
#include "models/dispatcher/indexed_tracker.h"
#include "models/dispatcher/scan_tracker.h"

namespace perflab::dispatcher {

std::unique_ptr<AsyncCallTracker> make_async_call_tracker(Strategy strategy, int max_requests_per_host) {
  switch (strategy) {
    case Strategy::kScan:
      return std::make_unique<ScanTracker>(max_requests_per_host);
    case Strategy::kCounter:
      return std::make_unique<CounterTracker>(max_requests_per_host);
    case Strategy::kIndexed:
      break;
  }
  return std::make_unique<IndexedTracker>(max_requests_per_host);
}

}  // namespace perflab::dispatcher
