// The sweep runner: every grid point × replication runs in its own forked child (SimGrid allows one engine
// per process, and a crash or hang stays in its child). Up to `jobs` children run at once; rows come back
// in grid order whatever finished first, so the CSV does not depend on --jobs.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/runner/run_table.h"
#include "sim/scenario/scenario.h"

namespace perflab {

// Some runs of a table, in task order, without listing them: every `step`-th task of each [first, last]
// range (a shard: one range, step N; a Dask slice: ranges, step 1).
struct TaskSelection {
  std::vector<std::pair<size_t, size_t>> ranges;  // inclusive, ascending, disjoint
  size_t step = 1;
  size_t count() const;  // how many tasks
  bool contains(size_t task) const;
  // Calls visit(task) for each task in order until it returns false.
  template <class Visit>
  void each(Visit visit) const {
    for (const auto& [first, last] : ranges) {
      for (size_t t = first; t <= last; t += step) {
        if (!visit(t)) return;
      }
    }
  }
};

struct RunOptions {
  int jobs = 1;
  double point_timeout_s = 0;                     // 0: no limit
  bool progress = false;                          // progress bar on stderr
  std::optional<std::filesystem::path> journal;   // finished rows are appended here as they arrive
  bool resume = false;                            // skip the rows already in the journal
  std::optional<std::filesystem::path> timeline;  // single-point runs only
  // Only these runs (RunTable::task_of), e.g. one shard of a sweep or a Dask task's share; the others stay
  // not run. None: every run.
  std::optional<TaskSelection> tasks;
  // Called in the parent with each row the moment its run ends (ok or not), e.g. to stream rows to a caller.
  std::function<void(const RunRow&)> on_row;
  // Per grid point, the sim's RunContext::wake_up (seconds): the machine's wake-up latency probed for that
  // point (validate, calibrate). Empty: 0 at every point.
  std::vector<double> wake_up;
};

// Runs the scenario. Failed runs are rows with an error, not a failed Result; the Result fails only when the
// run could not start (bad options, an unusable journal).
Result<RunTable> run_scenario(const Scenario& scenario, const RunOptions& options);

// What the study's prepare() loads for one grid point (empty for a study without one).
Result<PointInputs> prepare_point(const Scenario& scenario, size_t point);

// Runs one grid point × replication in this process (what each forked child does), with the point's
// prepared inputs. Exposed for tests.
RunRow run_one(const Scenario& scenario, size_t point, int replication, const PointInputs& inputs,
               const RunOptions& options);

}  // namespace perflab
