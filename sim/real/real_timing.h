// What every real-engine run reports beside its study's own metrics: how late its deadline sleeps woke
// (deadline_sleeper.h) and whether it got real-time scheduling (realtime.h). `perflab validate` prints the
// oversleep beside its report. A study's real result holds a RealTiming and binds it with
// bind_real_timing(), so the four metrics have one name and meaning in every study.
#pragma once

#include <cstdint>

#include "sim/metrics.h"
#include "sim/real/deadline_sleeper.h"

namespace perflab::real {

struct RealTiming {
  std::uint64_t sleeps = 0;
  double oversleep_mean_s = 0;
  double oversleep_max_s = 0;
  bool realtime = false;

  static RealTiming of(const OversleepStats& oversleep, bool realtime) {
    return {oversleep.sleeps, oversleep.mean_s(), static_cast<double>(oversleep.max_ns) * 1e-9, realtime};
  }
};

template <class R>
void bind_real_timing(MetricBindings<R>& m, RealTiming R::*timing) {
  const auto field = [timing](auto member) {
    return [timing, member](const R& r) { return (r.*timing).*member; };
  };
  m.count("sleeps", field(&RealTiming::sleeps),
          "sleeps on a deadline in the future (every thread and process)");
  m.seconds("oversleep_mean_s", field(&RealTiming::oversleep_mean_s),
            "mean lateness of those sleeps' wake-ups");
  m.seconds("oversleep_max_s", field(&RealTiming::oversleep_max_s), "largest lateness of a wake-up");
  m.count("realtime", field(&RealTiming::realtime),
          "1 if the run's processes got real-time scheduling (SCHED_FIFO)");
}

}  // namespace perflab::real
