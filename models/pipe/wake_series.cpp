// The real pump's wake-ups and off-CPU stretches as a series in time (see wake_series.h).
#include "models/pipe/wake_series.h"

#include <algorithm>

namespace perflab::pipe {

WakeSeries::WakeSeries(std::vector<WakeUp> wake_ups, std::vector<OffCpu> off_cpu)
    : wake_ups_(std::move(wake_ups)) {
  std::sort(wake_ups_.begin(), wake_ups_.end(), [](const WakeUp& a, const WakeUp& b) { return a.at < b.at; });
  std::sort(off_cpu.begin(), off_cpu.end(), [](const OffCpu& a, const OffCpu& b) { return a.from < b.from; });
  for (const OffCpu& s : off_cpu) {
    if (s.to <= s.from) continue;
    if (!off_cpu_.empty() && s.from <= off_cpu_.back().to) {
      off_cpu_.back().to = std::max(off_cpu_.back().to, s.to);
    } else {
      off_cpu_.push_back(s);
    }
  }
}

double WakeSeries::woken(double t) const {
  double at = t;
  if (!wake_ups_.empty()) {
    // The last wake-up at or before t; before the first, the first's latency.
    auto after = std::upper_bound(wake_ups_.begin(), wake_ups_.end(), t,
                                  [](double time, const WakeUp& w) { return time < w.at; });
    const WakeUp& last = after == wake_ups_.begin() ? *after : *(after - 1);
    const double window_end = last.at + last.latency;
    at = t >= last.at && t < window_end ? window_end : t + last.latency;
  }
  return finish(at, 0);
}

double WakeSeries::finish(double start, double cpu) const {
  // The first stretch that ends after `start`, then each one the work runs into.
  auto s = std::upper_bound(off_cpu_.begin(), off_cpu_.end(), start,
                            [](double time, const OffCpu& o) { return time < o.to; });
  double now = start, left = cpu;
  for (; s != off_cpu_.end(); ++s) {
    if (now < s->from) {
      if (now + left <= s->from) return now + left;
      left -= s->from - now;
    }
    now = s->to;  // inside the stretch, or run into it: resume at its end
    if (left <= 0) return now;
  }
  return now + left;
}

}  // namespace perflab::pipe
