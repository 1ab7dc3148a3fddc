// The lock cost model's calibration step: fits its constants (lock_cost_fit.h) to a calibration scenario's
// real runs (calibrate-real.toml) and says what it did — the method, the runs used, each constant beside
// the study's default (kCalibratedLockCost) and every run's residual.
#pragma once

#include <string>

#include "models/common/status.h"
#include "scenarios/dispatcher/lock_cost_fit.h"
#include "sim/run_table.h"

namespace perflab::dispatcher_study {

struct LockCostCalibration {
  LockCostFit fit;
  std::string report;  // markdown
  std::string toml;    // the constants, as a scenario's [params] would set them
};

// An error when the table is not a real-engine run of the study or has too few successful runs.
Result<LockCostCalibration> calibrate_lock_cost(const RunTable& table);

}  // namespace perflab::dispatcher_study
