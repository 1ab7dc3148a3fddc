// The results of running a scenario: one row per grid point × replication, in grid order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario.h"
#include "sim/study.h"

namespace perflab {

// How one run ended. Outputs, the CLI and reports switch on this, never on the error text.
enum class Outcome {
  kNotRun,    // interrupted before it ran (or not yet run)
  kOk,        // metrics are valid
  kFailed,    // the driver returned an error, or the child crashed: `error` says which
  kTimedOut,  // killed at --point-timeout
};
const char* outcome_name(Outcome outcome);

struct RunRow {
  size_t point = 0;     // index into Scenario::grid
  int replication = 0;  // 0 .. seeds-1
  uint64_t seed = 0;    // the CSV "seed": scenario seed + replication
  Outcome outcome = Outcome::kNotRun;
  std::string error;                // why it failed or timed out; empty otherwise
  Metrics metrics;                  // only when ok
  std::vector<double> repetitions;  // micro engine: seconds of each timed repetition

  bool ran() const { return outcome != Outcome::kNotRun; }
  bool ok() const { return outcome == Outcome::kOk; }
  bool failed() const { return outcome == Outcome::kFailed || outcome == Outcome::kTimedOut; }
};

// The layout of a scenario's runs: grid point p, replication r is run (task) p × seeds + r, rows in that
// order, and its seed is the scenario's seed + r.
struct RunTable {
  const Scenario* scenario = nullptr;
  std::vector<RunRow> rows;
  bool interrupted = false;

  // Every grid point × replication of `scenario`, in grid order, not run yet.
  static RunTable empty(const Scenario& scenario);
  static uint64_t seed_of(const Scenario& scenario, int replication) {
    return run_seed(scenario.seed, replication);
  }
  size_t task_of(size_t point, int replication) const {
    return point * static_cast<size_t>(scenario->seeds) + static_cast<size_t>(replication);
  }
  // Puts a run's row in its place; false when it is no run of this table (another scenario's row).
  bool place(RunRow row);

  size_t failed() const {
    size_t n = 0;
    for (const auto& row : rows) n += row.failed();
    return n;
  }
  // The typed parameter values of one grid point (what reports read; never parse column text).
  const Params& params(size_t point) const { return scenario->grid[point].params; }
  // The values of `metric` over the successful replications of one grid point.
  std::vector<double> values(size_t point, const std::string& metric) const;
  // The grid points whose parameter `column` has text `value` (e.g. "prefetch_depth" = "10").
  std::vector<size_t> points_where(const std::string& column, const std::string& label) const;
  // How the scenario spells a point's parameter ("64KiB", "dfs"): what reports print.
  const std::string& column_label(size_t point, const std::string& column) const;
};

}  // namespace perflab
