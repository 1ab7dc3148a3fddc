// Sim against real: the report of `perflab validate` (sim/validate_command.cpp), computed from values alone
// so it can be tested on synthetic tables. Per point and metric: the sim's value, the real runs' median
// with a 95% interval, and the error ln(real / sim) (SimGrid's LogErr: symmetric, 0.05 ≈ 5%). Per metric:
// mean and max |ln|, the rank rule over the pairs the sim separates beyond the real noise
// (sim/rank_agreement.h), the study's headline ratios in both engines per group of points, and the verdict
// against the criteria the scenario's [validate] table fixed before running. A criterion this grid cannot
// judge (a ratio with no pair, too few testable pairs) is reported "not judged", with why
// (docs/validation.md).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/status.h"
#include "sim/rank_agreement.h"

namespace perflab {

struct ValidationCriteria {
  double mean_abs_log = 0.05;     // mean |ln(real / sim)| over the points at most this
  double max_abs_log = 0.10;      // worst point at most this
  double ratio_tolerance = 0.05;  // each headline ratio: |real ratio / sim ratio - 1| at most this
  double rank_tau = 0.95;         // the rank rule (sim/rank_agreement.h): Kendall's tau-b at least this
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

// The pairs of points a ratio compares (numerator, denominator: equal on every other column), or why this
// grid forms none (`not_judged`).
struct RatioPairs {
  std::vector<std::pair<size_t, size_t>> pairs;
  std::string not_judged;
};
// Fails, a configuration error, when a selector is not COLUMN=VALUE with COLUMN a column of the grid. Reads
// only the points' labels: `perflab validate` checks its ratios with it before running.
Result<RatioPairs> ratio_pairs(const ValidationInput& input, const RatioSpec& spec);

struct RatioResult {
  std::string pair;   // "loop=eager / loop=coalesced" (" at max_requests=640" when the spec says where)
  std::string group;  // the pair's values of the other varying columns, "case=3-of-10, segment_size=32KiB"
  double sim = 0, real = 0;
  double difference() const { return real / sim - 1; }
};

enum class Verdict { kHeld, kFailed, kNotJudged };

struct Criterion {
  std::string name;   // "mean abs ln(real/sim)", "ratio loop=eager / loop=coalesced", …
  std::string where;  // the points it covers: "every point", a ratio's group, the rank rule's pairs
  double value = 0;   // NaN when not judged
  std::string bound;  // "<= 0.05"
  Verdict verdict = Verdict::kNotJudged;
  std::string detail;  // a ratio's two values, the rank rule's counts, or why it was not judged
};

struct MetricReport {
  std::string metric;
  std::vector<PointError> points;
  double mean_abs_log = 0, max_abs_log = 0;
  RankAgreement rank;
  std::vector<RatioResult> ratios;
  std::vector<Criterion> criteria;
};

struct ValidationReport {
  ValidationInput input;
  std::vector<MetricReport> metrics;
  bool held() const;  // no judged criterion failed
};

// Fails when a ratio's selector names no column, or a point has no real value or a sim value <= 0.
Result<ValidationReport> make_validation_report(ValidationInput input);

// The median of a sample with its 95% distribution-free interval (order statistics of a binomial(n, 1/2);
// for n <= 5 the widest one, [min, max], covers 94% at n = 5).
struct MedianInterval {
  double median, low, high;
};
MedianInterval median_interval(std::vector<double> xs);

std::string validation_markdown(const ValidationReport& report);

// One study of `perflab validate`'s closing summary: its report, or why it has none; `problem` also
// names failed runs of a study that has a report.
struct StudyValidation {
  std::string study;
  std::optional<ValidationReport> report;
  std::string problem;
};
// Headed "perflab validate: <title>"; one row per run and criterion (every criterion, with where it applies,
// its value, bound, verdict and detail), then one verdict line per run naming its failed criteria, or why
// it could not run.
std::string validation_summary(const std::vector<StudyValidation>& studies, const std::string& title);
// "held (every judged criterion; 2 not judged)" or "**failed**: NAME (METRIC, WHERE); …".
std::string validation_verdict(const ValidationReport& report);
// One row per point and metric: the point's parameter columns, metric, sim, real_median, real_low,
// real_high, log_error.
std::string validation_csv(const ValidationReport& report);

}  // namespace perflab
