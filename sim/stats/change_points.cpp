// E-divisive means with a t-test (see change_points.h). A segment's best split is found in O(n³): for each
// end of the right side, the sums of pairwise distances within the left side, within the right side and
// across are updated as the split moves one point to the right.
#include "sim/stats/change_points.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "sim/stats/stats.h"

namespace perflab::stats {
namespace {

struct Moments {
  double mean = 0, variance = 0;  // sample variance (n - 1)
};

Moments moments(const double* x, size_t n) {
  Moments m;
  for (size_t i = 0; i < n; ++i) m.mean += x[i];
  m.mean /= static_cast<double>(n);
  for (size_t i = 0; i < n; ++i) m.variance += (x[i] - m.mean) * (x[i] - m.mean);
  m.variance /= static_cast<double>(n - 1);
  return m;
}

struct Candidate {
  size_t index = 0;  // the split: z[begin, index) against z[index, end)
  size_t end = 0;    // where the right side ends (E-divisive's kappa)
  double q = 0;      // E-divisive's statistic: (n m / (n + m)) × the energy distance between the two sides
};

// Candidate splits z[b, t) | z[t, k) of a segment of `length` points, each side at least `min` long.
double candidates(size_t length, size_t min) {
  if (length < 2 * min) return 0;
  const double k = static_cast<double>(length - 2 * min + 1);
  return k * (k + 1) / 2;
}

// E-divisive's best split of z[begin, end): the (split, end of the right side) with the largest statistic
// (the earliest on ties), each side at least `min` points long; nothing when the segment is too short. The
// right side may end before the segment does, so a level that comes back (a bump) is found too.
std::optional<Candidate> best_split(const std::vector<double>& z, size_t begin, size_t end, size_t min) {
  if (end - begin < 2 * min) return std::nullopt;
  const size_t first = begin + min;  // the first split
  // Sums of |z_i - z_j| over pairs at split `first`, for the right side ending at `stop`.
  double left0 = 0, right0 = 0, across0 = 0;
  for (size_t i = begin; i < first; ++i)
    for (size_t j = i + 1; j < first; ++j) left0 += std::fabs(z[i] - z[j]);
  for (size_t i = first; i + 1 < first + min; ++i)
    for (size_t j = i + 1; j < first + min; ++j) right0 += std::fabs(z[i] - z[j]);
  for (size_t i = begin; i < first; ++i)
    for (size_t j = first; j < first + min; ++j) across0 += std::fabs(z[i] - z[j]);
  std::optional<Candidate> best;
  for (size_t stop = first + min; stop <= end; ++stop) {
    if (stop > first + min) {  // z[stop - 1] joins the right side
      for (size_t i = begin; i < first; ++i) across0 += std::fabs(z[i] - z[stop - 1]);
      for (size_t j = first; j + 1 < stop; ++j) right0 += std::fabs(z[j] - z[stop - 1]);
    }
    double left = left0, right = right0, across = across0;
    for (size_t split = first;; ++split) {
      const double n = static_cast<double>(split - begin), m = static_cast<double>(stop - split);
      const double energy = 2 * across / (n * m) - left / (n * (n - 1) / 2) - right / (m * (m - 1) / 2);
      const double q = n * m / (n + m) * energy;
      if (!best || q > best->q) best = Candidate{split, stop, q};
      if (stop - split - 1 < min) break;
      // z[split] moves from the right side to the left one.
      double to_left = 0, to_right = 0;
      for (size_t i = begin; i < split; ++i) to_left += std::fabs(z[i] - z[split]);
      for (size_t j = split + 1; j < stop; ++j) to_right += std::fabs(z[j] - z[split]);
      left += to_left;
      right -= to_right;
      across += to_right - to_left;
    }
  }
  return best;
}

// The t-test's p-value of z[begin, split) against z[split, stop), multiplied by `choices` (the candidate
// splits it was chosen from) when the options correct for the choice.
double pvalue_of(const std::vector<double>& z, size_t begin, size_t split, size_t stop, double choices,
                 const ChangePointOptions& options) {
  const double p = student_t_test(z.data() + begin, split - begin, z.data() + split, stop - split).pvalue;
  return options.correct_for_selection ? std::min(1.0, p * choices) : p;
}

}  // namespace

TTest student_t_test(const double* a, size_t na, const double* b, size_t nb) {
  const Moments ma = moments(a, na), mb = moments(b, nb);
  TTest test;
  test.dof = static_cast<double>(na + nb - 2);
  const double pooled = ((na - 1) * ma.variance + (nb - 1) * mb.variance) / test.dof;
  const double diff = mb.mean - ma.mean;
  if (pooled == 0) {
    test.t = diff == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), diff);
    test.pvalue = diff == 0 ? 1 : 0;
    return test;
  }
  test.t = diff / std::sqrt(pooled * (1.0 / static_cast<double>(na) + 1.0 / static_cast<double>(nb)));
  test.pvalue = 2 * student_t_cdf(-std::fabs(test.t), test.dof);
  return test;
}

std::vector<ChangePoint> change_points(const std::vector<double>& series, ChangePointOptions options) {
  const size_t min = std::max<size_t>(options.min_segment, 2);
  std::vector<size_t> bounds = {0, series.size()};  // segment k is [bounds[k], bounds[k + 1])
  for (;;) {
    std::optional<Candidate> chosen;
    for (size_t k = 0; k + 1 < bounds.size(); ++k) {
      auto candidate = best_split(series, bounds[k], bounds[k + 1], min);
      if (!candidate || (chosen && candidate->q <= chosen->q)) continue;
      const double choices = candidates(bounds[k + 1] - bounds[k], min);
      if (pvalue_of(series, bounds[k], candidate->index, candidate->end, choices, options) <=
          options.max_pvalue)
        chosen = candidate;
    }
    if (!chosen) break;
    bounds.insert(std::upper_bound(bounds.begin(), bounds.end(), chosen->index), chosen->index);
  }
  // Each change point again between its final neighbours: drop the least significant failure, retest.
  for (;;) {
    size_t worst = 0;
    double worst_p = options.max_pvalue;
    for (size_t k = 1; k + 1 < bounds.size(); ++k) {
      const double p = pvalue_of(series, bounds[k - 1], bounds[k], bounds[k + 1],
                                 candidates(bounds[k + 1] - bounds[k - 1], min), options);
      if (p > worst_p) worst = k, worst_p = p;
    }
    if (worst == 0) break;
    bounds.erase(bounds.begin() + static_cast<std::ptrdiff_t>(worst));
  }
  std::vector<ChangePoint> found;
  for (size_t k = 1; k + 1 < bounds.size(); ++k) {
    const double* z = series.data();
    ChangePoint point;
    point.index = bounds[k];
    point.mean_before = moments(z + bounds[k - 1], bounds[k] - bounds[k - 1]).mean;
    point.mean_after = moments(z + bounds[k], bounds[k + 1] - bounds[k]).mean;
    point.pvalue = pvalue_of(series, bounds[k - 1], bounds[k], bounds[k + 1],
                             candidates(bounds[k + 1] - bounds[k - 1], min), options);
    found.push_back(point);
  }
  return found;
}

}  // namespace perflab::stats
