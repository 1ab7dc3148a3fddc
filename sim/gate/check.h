// The regression gate's rules, shared by `perflab check` (a fresh run against the committed results) and
// `perflab compare A B` (two result folders of one scenario). The sim engine is deterministic: the same
// scenario, seed and build give the same numbers, so results are paired seed by seed, never compared as
// samples:
//   - rows are paired by (grid point, seed); a row in one table and not in the other is a failure
//     ("missing"), never skipped. `check --quick` runs a subset of the committed grid and seeds by design
//     (Scope::kSubset): there only the fresh run's rows must all be found in the committed table;
//   - an exact metric (MetricSpec::exact, a deterministic count) must be equal;
//   - every other sim-engine metric must be equal within a relative tolerance, |b − a| / max(|a|, |b|) ≤ t,
//     with t = 1e-9 by default: room for floating-point differences between compilers and libm, nothing
//     more. A scenario's [check] table sets t per metric (`duration_s = 1e-6`), `--tolerance` sets it for
//     all metrics (`--tolerance 1e-6`) or one (`--tolerance duration_s=1e-6`); exact metrics stay exact;
//   - micro-engine timings are never compared as absolute times (a shared machine is noisy): only the
//     study's claims (ratios, fitted exponents) judge them, each against its bounds;
//   - when grid points of one table are absent from the other because a parameter's value changed (a
//     default moved in code or in the scenario), the report says which parameter changed, from what to
//     what, once, instead of listing every row as missing;
//   - a parameter only the newer table has, at one value in all its rows (a knob added since the other was
//     written, at its default), is taken to have had that value in the older table's rows, and is named in
//     a note: seeds do not depend on parameters (sim/study/seeding.h), so the metrics alone say whether adding it
//     moved anything.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/gate/results_reader.h"
#include "sim/runner/run_table.h"

namespace perflab {

constexpr double kDefaultRelativeTolerance = 1e-9;

struct CheckRules {
  double tolerance = kDefaultRelativeTolerance;  // relative, for every non-exact sim-engine metric
  std::map<std::string, double> per_metric;      // [check] and --tolerance METRIC=T, over `tolerance`
  double tolerance_for(const std::string& metric) const;
};

// The rules for a study's `metrics`: `scenario_tolerances` (a scenario's [check]) over the default, then
// `flags`, the --tolerance values: "1e-6" (every metric) or "METRIC=1e-6". An unknown metric, an exact
// one, or a value that is not a number >= 0 is an error.
Result<CheckRules> check_rules(const std::vector<MetricSpec>& metrics,
                               const std::map<std::string, double>& scenario_tolerances,
                               const std::vector<std::string>& flags);

enum class Scope {
  kSame,    // both tables hold the same grid and seeds
  kSubset,  // the second is a subset of the first by design (check --quick: fewer seeds, fewer sizes)
  kCommon,  // compare: the rows both tables hold are compared; what one lacks is its coverage, not a
            // failure (a grid change only when no point is common)
};

enum class Judgement { kExact, kTolerance, kNotJudged };

// One grid point × metric over its paired seeds.
struct Cell {
  std::string point;  // "prefetch_depth=10" (the parameters that vary), or "(one point)"
  std::string metric;
  Judgement judgement = Judgement::kExact;
  double tolerance = 0;
  size_t seeds = 0;  // paired seeds compared
  size_t moved = 0;  // seeds beyond the tolerance
  double mean_a = 0;
  double mean_b = 0;
  double largest = 0;  // the largest relative move of one seed, signed: (b − a) / max(|a|, |b|)
  uint64_t largest_seed = 0;
  double a_at_largest = 0;
  double b_at_largest = 0;
  bool pass() const { return moved == 0; }
};

struct MissingRow {
  std::string point;
  uint64_t seed = 0;
  std::string absent_from;  // which side lacks it ("committed", "now", or the folder)
};

struct Comparison {
  std::vector<Cell> cells;
  std::vector<MissingRow> missing;
  std::vector<std::string> grid_changes;     // "parameter prune_threshold changed from 1 to 2 (9 points)"
  std::vector<std::string> outcome_changes;  // a run that failed on one side and not on the other
  std::vector<std::string> notes;            // "parameter file is new in fresh, at \"\" in every run"
  // Which rows were compared: "B has 5 of A's 10 seeds at every point; compared on those", long lists cut
  // to their first few. Empty when both tables hold the same rows.
  std::vector<std::string> coverage;
  size_t common_rows = 0;                    // rows (point × seed) both tables hold
  size_t exact_values = 0;                   // paired values compared exactly
  size_t tolerance_values = 0;               // paired values compared within a tolerance
  bool pass() const;
};

// Pairs `b` with `a` by the rules above. `a_name` and `b_name` say which side a missing row is absent from.
Comparison compare_rows(const ResultRows& a, const ResultRows& b, const std::vector<MetricSpec>& metrics,
                        Engine engine, const CheckRules& rules, Scope scope, const std::string& a_name,
                        const std::string& b_name);

struct ClaimVerdict {
  Claim claim;
  double before = 0;  // the claim's value on the committed (or first) table, NaN if it has none
  bool holds() const { return claim.value >= claim.low && claim.value <= claim.high; }
};
// The study's claims on `now`, each with its value on `before`.
std::vector<ClaimVerdict> judge_claims(const RunTable& before, const RunTable& now);

// `perflab check` on one scenario: the paired comparison, the claims, the runs that failed.
struct CheckResult {
  Comparison values;
  std::vector<ClaimVerdict> claims;
  std::vector<std::string> failed_runs;  // "point, seed 3: the error"
  bool pass() const;
};
CheckResult check_scenario(const ResultRows& committed, const RunTable& committed_table,
                           const RunTable& fresh, const CheckRules& rules, Scope scope);

// The failure table `check` prints: per metric, how many values moved, the largest relative move and the
// point and seed where it happened; then missing rows, changed outcomes, failed claims and failed runs.
std::string failure_table(const std::string& scenario, const CheckResult& result);

// How a cell is judged: "exact", "1e-09 relative", or "timing: claims only".
std::string tolerance_text(const Cell& cell);

// "+5%", "-0.1%", "+1e-10%" (a relative move in percent, with the digits it needs).
std::string relative_text(double relative);

}  // namespace perflab
