// H2's tick grid and H1's completion rule (see mechanism.h).
#include "models/pipe/mechanism.h"

#include <cmath>

namespace perflab::pipe {

double PollTick::wake_time(double now) const {
  double ticks = std::floor((now - phase_) / resolution_) + 1;
  double wake = phase_ + ticks * resolution_;
  if (wake <= now) wake += resolution_;  // rounding at an exact boundary
  return wake;
}

std::optional<double> CompletionDelay::deadline(double now, bool writer_blocked) {
  if (writer_blocked) return std::nullopt;
  double d = draw_();
  if (d <= 0) return std::nullopt;
  ++delayed_;
  return now + d;
}

}  // namespace perflab::pipe
