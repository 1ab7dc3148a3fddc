// The regression gate's comparison: a fresh run of a headline scenario against the committed results of
// the same scenario (results/<study>/<name>.csv), metric by metric.
//   - exact metrics (MetricSpec::exact, deterministic counts): equal, seed by seed;
//   - other metrics of the sim engine (simulated times): Welch's two-sample t-test on the seeds' values,
//     failing at p < 0.001. Welch, not an overlap of the two 95% intervals, because it weighs both sample
//     sizes (a quick check runs fewer seeds than the committed ten) and does not assume equal variances; the
//     small alpha keeps false alarms rare over the hundreds of point × metric tests a check makes. With no
//     spread on either side (a deterministic time) the values must agree to 1e-9, relatively;
//   - micro-engine timings are never compared as absolute times (a shared machine is noisy): only the
//     study's claims (ratios, fitted exponents) are checked, each against its bounds.
#pragma once

#include <string>
#include <vector>

#include "sim/run_table.h"

namespace perflab {

struct CheckVerdict {
  std::string point;  // "strategy=scan, n=64000", or the claim's name
  std::string metric;
  std::string committed;
  std::string now;
  std::string tolerance;
  bool pass = true;
};

struct CheckResult {
  std::vector<CheckVerdict> failures;
  size_t exact_values = 0;
  size_t interval_tests = 0;
  size_t claims = 0;
};

// Compares `fresh` with `committed` (both laid over the same scenario grid).
CheckResult compare_runs(const RunTable& committed, const RunTable& fresh);

// Welch's t statistic's two-sided test at level `alpha`: true when the means do not differ significantly.
// A sample of one value borrows the other sample's spread.
bool welch_same_mean(const std::vector<double>& a, const std::vector<double>& b, double alpha);

}  // namespace perflab
