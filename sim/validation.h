// Sim against real: the report of `perflab validate` (sim/validate_command.cpp), computed from values alone
// so it can be tested on synthetic tables. Per point and metric: the sim's value, the real runs' median
// with a 95% interval, and the error ln(real / sim) (SimGrid's LogErr: symmetric, 0.05 ≈ 5%). Per metric:
// mean and max |ln|, Spearman's ρ over the points, the study's headline ratios in both engines, and the
// verdict against the criteria the scenario's [validate] table fixed before running.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

struct ValidationCriteria {
  double mean_abs_log = 0.05;     // mean |ln(real / sim)| over the points at most this
  double max_abs_log = 0.10;      // worst point at most this
  double ratio_tolerance = 0.05;  // each headline ratio: |real ratio / sim ratio - 1| at most this
  double spearman = 0.95;         // the points rank alike: Spearman's ρ at least this
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
  // Calibrated constants, set on the sim engine only (KEY = VALUE as for --set), and where they were
  // measured: a calibration scenario on points outside the validation grid.
  std::vector<std::pair<std::string, std::string>> calibration;
  std::string calibration_source;
};

// One grid point's values, as validate collected them.
struct ValidationPoint {
  std::vector<std::string> columns;       // the point's parameter values (as the CSV writes them)
  std::vector<std::string> labels;        // as the scenario spells them (for tables and ratio matching)
  std::vector<double> sim;                // per metric
  std::vector<std::vector<double>> real;  // per metric: one value per real repetition
};

struct ValidationInput {
  std::string scenario;
  std::vector<std::string> column_names;
  std::vector<std::string> metrics;
  std::vector<ValidationPoint> points;
  ValidateSpec spec;
  std::vector<std::string> notes;  // printed as they are: calibrations, oversleep, failed runs
};

struct PointError {
  double sim = 0, real_median = 0, real_low = 0, real_high = 0, log_error = 0;
};

struct RatioResult {
  std::string name;  // "duration_s: prefetch_depth=0 / prefetch_depth=1"
  double sim = 0, real = 0;
  double difference() const { return real / sim - 1; }
};

struct Criterion {
  std::string name;
  double value = 0;
  std::string bound;  // "<= 0.05"
  bool held = false;
};

struct MetricReport {
  std::string metric;
  std::vector<PointError> points;
  double mean_abs_log = 0, max_abs_log = 0, spearman = 0;
  std::vector<RatioResult> ratios;
  std::vector<Criterion> criteria;
};

struct ValidationReport {
  ValidationInput input;
  std::vector<MetricReport> metrics;
  bool held() const;
};

// Fails when a ratio names no point, or a point has no real value or a sim value <= 0.
Result<ValidationReport> make_validation_report(ValidationInput input);

// The median of a sample with its 95% distribution-free interval (order statistics of a binomial(n, 1/2);
// for n <= 5 the widest one, [min, max], covers 94% at n = 5).
struct MedianInterval {
  double median, low, high;
};
MedianInterval median_interval(std::vector<double> xs);
// Spearman's rank correlation (ties get their average rank); NaN for fewer than 2 points or no spread.
double spearman_rho(const std::vector<double>& x, const std::vector<double>& y);

std::string validation_markdown(const ValidationReport& report);

// One study of `perflab validate`'s closing summary: its report, or why it has none; `problem` also
// names failed runs of a study that has a report.
struct StudyValidation {
  std::string study;
  std::optional<ValidationReport> report;
  std::string problem;
};
// One row per study and metric: points, mean and max |ln(real/sim)|, the first headline ratio in sim and
// real, Spearman's ρ and the verdict ("held", the criteria that failed, or why it could not run).
std::string validation_summary(const std::vector<StudyValidation>& studies);
// One row per point and metric: the point's parameter columns, metric, sim, real_median, real_low,
// real_high, log_error.
std::string validation_csv(const ValidationReport& report);

}  // namespace perflab
