// Fits the lock cost model's constants (lock_cost_model.h) to real runs: each run's measured total hold
// against its tally of what the formula multiplies (sections, moves, decades of idle lock, cold elements,
// elements, elements x running calls met). The
// fit minimises the sum of squared ln(predicted / measured) over the runs, so a run of 1 µs sections weighs
// as much as one of 10 ms sections, with every constant >= 0 (Gauss-Newton steps, each a least-squares
// problem solved over every subset of free constants, keeping the best one that stays non-negative).
#pragma once

#include <string>
#include <vector>

#include "models/common/status.h"
#include "scenarios/dispatcher/lock_cost_model.h"

namespace perflab::dispatcher_study {

struct LockCostObservation {
  std::string label;  // the run, for the residual table
  LockCostTally tally;
  double measured_hold_s = 0;
};

struct LockCostFit {
  LockCostModel model;            // the observations' cache sizes, the fitted constants
  std::vector<double> residuals;  // ln(predicted / measured), one per observation
  double mean_abs_log = 0;
  double max_abs_log = 0;
};

// `cache` gives the cache sizes the tallies were counted with; its constants are ignored. An error for
// fewer observations than constants, or a measured hold that is not positive.
Result<LockCostFit> fit_lock_cost(const std::vector<LockCostObservation>& observations,
                                  const LockCostModel& cache);

}  // namespace perflab::dispatcher_study
