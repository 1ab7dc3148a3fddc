// A scenario's [validate] table: what `perflab validate` runs and the criteria it judges by, fixed in the
// file before the first run (docs/validation.md; the judgement is sim/gate/validation.h's).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace perflab {

struct ValidationCriteria {
  double mean_abs_log = 0.05;     // mean |ln(real / sim)| over the points at most this
  double max_abs_log = 0.10;      // worst point at most this
  double ratio_tolerance = 0.05;  // each headline ratio: |real ratio / sim ratio - 1| at most this
  double rank_tau = 0.95;         // the rank rule (sim/stats/rank_agreement.h): Kendall's tau-b at least this
};

// A headline ratio: the metric at the points matching `numerator` over the points matching `denominator`,
// each written COLUMN=LABEL ("prefetch_depth=0"); points agreeing on every other column are paired. `at`
// (optional, COLUMN=LABEL too) keeps only the pairs at the points it matches ("max_requests=640").
struct RatioSpec {
  std::string numerator;
  std::string denominator;
  std::string at{};  // empty: every pair
};

// Same-run mode, for a study whose real runs are replayed into its model within one run (pipe's
// linux-real): `name` compares metric `model` (the sim side) with metric `real` of the same rows.
struct PairSpec {
  std::string name;
  std::string model;
  std::string real;
};

// A scenario's [validate] table.
struct ValidateSpec {
  std::vector<std::string> metrics = {"duration_s"};
  int repetitions = 5;  // real runs of each point (>= 5), spaced: one pass over the grid after another
  ValidationCriteria criteria;
  std::vector<RatioSpec> ratios;
  std::vector<PairSpec> pairs;  // non-empty: same-run mode, the scenario's own engine, no sim run
  // Non-empty: the whole validation once per network.latency here (one report each, named
  // SCENARIO-LABEL), since [network] is one per scenario and so not a grid column.
  std::vector<std::string> latencies;
  // Real runs of each point at some of those latencies, instead of `repetitions` (each >= 5): where a point
  // is short, its median needs more runs to be as sure as the longer points' (share at 0.5 ms).
  std::map<std::string, int> repetitions_at;
  int repetitions_at_latency(const std::string& latency) const {
    auto found = repetitions_at.find(latency);
    return found == repetitions_at.end() ? repetitions : found->second;
  }
  // Calibrated constants, set on the sim engine only (KEY = VALUE as for --set), and where they were
  // measured: a calibration scenario on points outside the validation grid.
  std::vector<std::pair<std::string, std::string>> calibration;
  std::string calibration_source;  // the calibration scenario's file, as the [validate] table names it
  // Where the constants above were read (validate: the committed file, or this window's), and with
  // calibrate_in_window the committed value of each (PARAM -> VALUE), as the report's notes say them.
  std::string calibration_constants;
  std::map<std::string, std::string> calibration_committed;
  // The calibration is made again in the validation's own window, before its first run (`perflab calibrate
  // STUDY` once, on the same points outside the grid), and the sim runs at those constants; the committed
  // file is still read and checked, and the report gives both (docs/validation.md, "In the window").
  bool calibrate_in_window = false;
  // Settings of the sim side alone (KEY = VALUE as for --set) that are not calibrations: what the real
  // engine has no knob for because it is the real thing (the dispatcher's lock hand-off: the real engine's
  // lock is glibc's std::mutex, so its sim twin runs lock = "glibc").
  std::vector<std::pair<std::string, std::string>> sim;
  // Further validation files of the study, beside this one (share's validate-headline.toml): `perflab
  // validate STUDY` runs them after this file. A held-out grid is not listed: it is run by its file name.
  std::vector<std::string> also;
};

}  // namespace perflab
