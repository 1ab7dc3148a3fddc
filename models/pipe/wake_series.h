// The real pump's availability over one recorded run, as a series in time: when each of its wake-ups
// happened and how long it took, and the stretches it was off its CPU in the middle of a read. The model's
// reader (readers.h) looks its delay up at its own time in this series, rather than paying one median
// latency or independent draws: descheduling comes in runs on a loaded machine, and a draw per wake-up
// loses when they happened.
//
//   wake-up   a read the pump slept for: the waking write's bytes became readable at `at` (its copy done),
//             epoll_wait returned `latency` later. Until at + latency the pump was not running (runnable
//             and not yet scheduled, or its CPU waking from idle), so a model reader woken inside that
//             window runs when the real one did; one woken after it pays the latency of the last wake-up
//             before its time: the wake cost as it was then.
//   off CPU   a read that took longer than the pump's cost per read (the calibrated c0 + c1 * bytes) spent
//             the excess off its CPU; the stretch is placed at the start of the read (from the re-poll, or
//             from the wake-up), where a model reader at the same point of its loop meets it: the record
//             does not say where in the read the CPU was lost. Model work begun in a stretch, or running
//             into one, resumes at its end.
//
// Times are seconds from the run's first write, the replay's origin.
#pragma once

#include <vector>

namespace perflab::pipe {

struct WakeUp {
  double at;       // the waking write's bytes readable
  double latency;  // until epoll_wait returned
};

struct OffCpu {
  double from, to;
};

class WakeSeries {
 public:
  WakeSeries() = default;
  // Both in any order; sorted here. Overlapping stretches are merged.
  WakeSeries(std::vector<WakeUp> wake_ups, std::vector<OffCpu> off_cpu);

  bool empty() const { return wake_ups_.empty(); }
  // When a reader whose pipe became readable at `t` runs (>= t).
  double woken(double t) const;
  // When `cpu` seconds of work begun at `start` are done, the off-CPU stretches skipped.
  double finish(double start, double cpu) const;

  const std::vector<WakeUp>& wake_ups() const { return wake_ups_; }
  const std::vector<OffCpu>& off_cpu() const { return off_cpu_; }

 private:
  std::vector<WakeUp> wake_ups_;
  std::vector<OffCpu> off_cpu_;
};

}  // namespace perflab::pipe
