// The micro engine: runs a study's workload on the real code and the real CPU, timed by Google Benchmark.
// Each grid point becomes one registered benchmark (one iteration = one whole workload) repeated
// `repetitions` times; the point's `seconds` is the median repetition, and the raw repetitions are kept.
#pragma once

#include <vector>

#include "models/common/status.h"
#include "sim/params.h"
#include "sim/study.h"

namespace perflab {

struct MicroResult {
  Metrics metrics;                  // the study's report from the median time and the workload's counters
  std::vector<double> repetitions;  // seconds of each repetition, in order
};

Result<MicroResult> run_micro(const Study& study, const Params& params, int repetitions);

}  // namespace perflab
