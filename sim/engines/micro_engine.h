// The micro engine: runs a study's workload on the real code and the real CPU, timed by Google Benchmark.
// Each grid point becomes one registered benchmark (one iteration = one whole workload) repeated
// `repetitions` times; the point's `seconds` is the median repetition, and the raw repetitions are kept.
//
// Before them the workload runs once off the record, as benchmark tools warm up. A point runs in a fresh
// process, and its first run pays what no later run does: the heap grows into pages the kernel has yet to
// map, caches and branch predictors are cold, so without a warm-up a short point's median could be its
// cold run. A warm-up that takes longer than kLongestWarmUpSeconds counts as the first repetition
// instead: a cold start is lost in a run that long, and a minute-long point is not paid twice. Such a long
// point may also take fewer repetitions than the short ones (a scenario's `long_repetitions`): its runs
// spread little, and each costs seconds.
#pragma once

#include <optional>
#include <vector>

#include "models/common/status.h"
#include "sim/study/params.h"
#include "sim/study/study.h"

namespace perflab {

struct MicroResult {
  Metrics metrics;                  // the study's report from the median time and the workload's counters
  std::vector<double> repetitions;  // seconds of each repetition, in order
};

inline constexpr double kLongestWarmUpSeconds = 1.0;

// `long_repetitions` (none: `repetitions`) is the count for a point whose warm-up took longer than
// kLongestWarmUpSeconds.
Result<MicroResult> run_micro(const Study& study, const Params& params, const PointInputs& inputs,
                              int repetitions, std::optional<int> long_repetitions = std::nullopt);

}  // namespace perflab
