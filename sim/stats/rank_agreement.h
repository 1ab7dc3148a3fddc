// The rank rule of `perflab validate` (docs/validation.md): do the real runs order the points as the sim
// does, where the sim's differences are large enough for the real runs to show them? A pair of points is
// testable when the sim's difference between them exceeds the width of either point's real 95% interval;
// the other pairs' order is noise in the real runs and is reported, not judged. Over the testable pairs:
// Kendall's tau-b (ties in the real medians handled by tau-b's correction; the sim has none there).
#pragma once

#include <vector>

namespace perflab {

// One point: the sim's value and the real runs' median with its 95% interval.
struct RankedPoint {
  double sim = 0, real = 0, real_low = 0, real_high = 0;
};

struct RankAgreement {
  int pairs = 0;       // every pair of points
  int testable = 0;    // pairs whose sim difference exceeds both points' real interval widths
  int concordant = 0;  // testable pairs the real medians order as the sim does
  int discordant = 0;  // testable pairs ordered the other way
  int real_ties = 0;   // testable pairs whose real medians are equal
  double tau = 0;      // Kendall's tau-b over the testable pairs (0 if all tie in real; NaN if none)
};

// Fewer testable pairs than this and the rank criterion is not judged (one or two pairs give ±1 or a coin's
// worth of evidence, whatever the model).
constexpr int kMinTestablePairs = 3;

RankAgreement rank_agreement(const std::vector<RankedPoint>& points);

}  // namespace perflab
