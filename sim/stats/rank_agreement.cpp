// See rank_agreement.h.
#include "sim/stats/rank_agreement.h"

#include <algorithm>
#include <cmath>

namespace perflab {

RankAgreement rank_agreement(const std::vector<RankedPoint>& points) {
  RankAgreement out;
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t j = i + 1; j < points.size(); ++j) {
      const RankedPoint& a = points[i];
      const RankedPoint& b = points[j];
      ++out.pairs;
      const double noise = std::max(a.real_high - a.real_low, b.real_high - b.real_low);
      const double sim_difference = a.sim - b.sim;
      if (!(std::abs(sim_difference) > noise)) continue;
      ++out.testable;
      const double real_difference = a.real - b.real;
      if (real_difference == 0) {
        ++out.real_ties;
      } else if ((real_difference > 0) == (sim_difference > 0)) {
        ++out.concordant;
      } else {
        ++out.discordant;
      }
    }
  }
  // tau-b = (C - D) / sqrt((n0 - n1) (n0 - n2)) with n1 = 0 (a testable pair is never tied in the sim).
  // Every testable pair tied in the real runs: the real shows none of the order the sim predicts, tau = 0.
  const double denominator = std::sqrt(static_cast<double>(out.testable) * (out.testable - out.real_ties));
  if (denominator > 0) {
    out.tau = (out.concordant - out.discordant) / denominator;
  } else {
    out.tau = out.testable > 0 ? 0 : NAN;
  }
  return out;
}

}  // namespace perflab
