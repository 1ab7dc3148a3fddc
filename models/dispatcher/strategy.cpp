// Strategy names; see strategy.h.
#include "models/dispatcher/strategy.h"

#include <string>

namespace perflab::dispatcher {

std::string_view strategy_name(Strategy strategy) {
  switch (strategy) {
    case Strategy::kScan:
      return "scan";
    case Strategy::kCounter:
      return "counter";
    case Strategy::kIndexed:
      return "indexed";
  }
  return "unknown";
}

Result<Strategy> parse_strategy(std::string_view name) {
  for (Strategy strategy : kAllStrategies) {
    if (strategy_name(strategy) == name) {
      return strategy;
    }
  }
  return Status::Error("unknown dispatcher strategy \"" + std::string(name) +
                       "\", expected one of: scan, counter, indexed");
}

}  // namespace perflab::dispatcher
