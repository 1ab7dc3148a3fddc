// See median_interval.h.
#include "sim/stats/median_interval.h"

#include <algorithm>
#include <cmath>

namespace perflab {
namespace {

// P(X <= k) for X ~ binomial(n, 1/2).
double binomial_half_cdf(int n, int k) {
  double total = 0;
  double term = std::pow(0.5, n);  // C(n, 0) / 2^n
  for (int i = 0; i <= k; ++i) {
    total += term;
    term = term * (n - i) / (i + 1);
  }
  return total;
}

// The largest k with P(X < k) <= 2.5%: [x_(k), x_(n+1-k)] (1-based) covers the median with >= 95%;
// at least k = 1, [min, max], when no k does.
int interval_rank(int n) {
  int k = 1;
  while (k + 1 <= n / 2 && binomial_half_cdf(n, k) <= 0.025) ++k;
  return k;
}

}  // namespace

double median_interval_coverage(int n) {
  return n <= 1 ? 0 : 1 - 2 * binomial_half_cdf(n, interval_rank(n) - 1);
}

MedianInterval median_interval(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const int n = static_cast<int>(xs.size());
  if (n == 0) return {NAN, NAN, NAN};
  double median = n % 2 == 1 ? xs[static_cast<size_t>(n / 2)]
                             : (xs[static_cast<size_t>(n / 2 - 1)] + xs[static_cast<size_t>(n / 2)]) / 2;
  const int k = interval_rank(n);
  return {median, xs[static_cast<size_t>(k - 1)], xs[static_cast<size_t>(n - k)]};
}

}  // namespace perflab
