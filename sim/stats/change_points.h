// Change points of a noisy series (a micro-engine timing across the commits that re-measured it), as Hunter
// and Apache Otava find them: E-divisive means (Matteson & James 2014) proposes the split of a segment that
// most separates its two sides (the energy statistic of the pairwise distances), and Student's two-sample
// t-test between the two sides (pooled variance, as Hunter's), instead of E-divisive's random permutations,
// decides whether it is real. So the answer is deterministic: the same series gives the same change
// points. `perflab history` (sim/cli/history_command.cpp) marks them on results/history.html.
#pragma once

#include <cstddef>
#include <vector>

namespace perflab::stats {

struct ChangePointOptions {
  // A split is kept when the two-sided t-test between its neighbouring segments gives a p-value at or
  // below this (Otava's default).
  double max_pvalue = 0.001;
  // The fewest points on either side of a change point; values below 2 count as 2 (a t-test needs a
  // variance on each side).
  size_t min_segment = 3;
  // The split tested is the best of a segment's candidates, not one fixed in advance, so its t-test alone
  // overstates the evidence: on pure noise (1,000 series each, measured with this code), the plain test at
  // p <= 0.001 finds a change point in 2.0% of 30-point, 3.4% of 60-point and 12% of 200-point series. With
  // this on (our departure from Hunter), the p-value is multiplied by the number of candidate splits
  // (Bonferroni): none in any of them, while a step of twice the noise's standard deviation halfway is
  // still found at its place in 30% of 30-point and 60% of 60-point series (61% without the correction).
  // tests/stats/change_points_test.cpp checks both.
  bool correct_for_selection = true;
};

struct ChangePoint {
  size_t index = 0;                        // the first point after the change
  double mean_before = 0, mean_after = 0;  // of the segments on either side (between the neighbouring points)
  double pvalue = 1;  // the t-test between those segments (× the candidate splits, see above)
};

struct TTest {
  double t = 0, dof = 0, pvalue = 1;
};

// Student's two-sided two-sample t-test (pooled variance, na + nb - 2 dof) of a[0, na) against b[0, nb)
// (na, nb >= 2). When neither sample varies, the p-value is 0 if their means differ and 1 if not.
// (Welch's unequal-variance test is not used: a 3-point side that happens to vary little gets a large t
// on many dof, and the split search seeks exactly those.)
TTest student_t_test(const double* a, size_t na, const double* b, size_t nb);

// The change points of `series`, in order of index. Each segment's candidate is E-divisive's best split
// z[b, t) | z[t, k) (k, the end of the right side, may stop short of the segment's end, so a level that
// goes and comes back is seen), t-tested between those two sides; the significant candidate with the
// largest statistic splits its segment (ties to the earliest), until none is significant. Then every
// change point is tested again between its final neighbouring segments and the least significant failure
// dropped until all pass, as Hunter does.
std::vector<ChangePoint> change_points(const std::vector<double>& series, ChangePointOptions options = {});

}  // namespace perflab::stats
