// The results of running a scenario: one row per grid point × replication, in grid order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/study/study.h"

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

// The layout of a scenario's runs: grid point p, replication r is run (task) p × seeds + r, and its seed is
// the scenario's seed + r. The table holds the rows of the runs that were made (or read), in that order, and
// nothing for the others: a 10^7-point sweep interrupted after a thousand runs holds a thousand rows.
struct RunTable {
  const Scenario* scenario = nullptr;
  std::vector<RunRow> rows;  // sorted by (point, replication)
  int interrupted = 0;       // the signal that stopped the run (SIGINT: Ctrl-C, or SIGTERM), 0 if none did
  size_t planned = 0;        // runs this run was to make (a shard's share); 0: every run of the grid
  std::vector<double> wake_up;  // per grid point, the sim ran at this wake-up (RunOptions::wake_up); empty: 0

  // A table of `scenario` with no row yet.
  static RunTable empty(const Scenario& scenario);
  static uint64_t seed_of(const Scenario& scenario, int replication) {
    return run_seed(scenario.seed, replication);
  }
  size_t task_of(size_t point, int replication) const {
    return point * static_cast<size_t>(scenario->seeds) + static_cast<size_t>(replication);
  }
  // Every grid point × replication of the scenario.
  size_t total_runs() const { return scenario->grid.size() * static_cast<size_t>(scenario->seeds); }
  size_t planned_runs() const { return planned > 0 ? planned : total_runs(); }
  // Puts a run's row in its place (replacing one of the same run); false when it is no run of this table
  // (another scenario's row).
  bool place(RunRow row);
  // Sorts rows appended out of order (a CSV read back) into place.
  void sort();

  size_t ran() const;
  size_t failed() const;
  // The grid points that have a row, in grid order.
  std::vector<size_t> points() const;
  // The typed parameter values of one grid point (what reports read; never parse column text).
  Params params(size_t point) const { return scenario->grid[point].params; }
  // The values of `metric` over the successful replications of one grid point.
  std::vector<double> values(size_t point, const std::string& metric) const;
  // The rows of one grid point.
  std::pair<std::vector<RunRow>::const_iterator, std::vector<RunRow>::const_iterator> rows_of(
      size_t point) const;
  // The grid points whose parameter `column` has text `value` (e.g. "prefetch_depth" = "10").
  std::vector<size_t> points_where(const std::string& column, const std::string& label) const;
  // How the scenario spells a point's parameter ("64KiB", "dfs"): what reports print.
  std::string column_label(size_t point, const std::string& column) const;
};

}  // namespace perflab
