// Sim against real: the report of `perflab validate` (sim/cli/validate_command.cpp), computed from values
// alone so it can be tested on synthetic tables. Per point and metric: the sim's value, the real runs' median
// with a 95% interval, and the error ln(real / sim) (SimGrid's LogErr: symmetric, 0.05 ≈ 5%). Per metric:
// mean and max |ln|, the rank rule over the pairs the sim separates beyond the real noise
// (sim/stats/rank_agreement.h), the study's headline ratios in both engines per group of points, and the
// verdict against the criteria the scenario's [validate] table fixed before running. A criterion this grid
// cannot judge (a ratio with no pair, too few testable pairs) is reported "not judged", with why
// (docs/validation.md).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/status.h"
#include "sim/scenario/validate_spec.h"
#include "sim/stats/rank_agreement.h"

namespace perflab {

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
// The columns whose value changes across the points (a table's); the others are said once.
std::vector<size_t> varying_columns(const ValidationInput& input);

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

}  // namespace perflab
