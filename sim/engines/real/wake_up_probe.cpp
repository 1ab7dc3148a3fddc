// See wake_up_probe.h.
#include "sim/engines/real/wake_up_probe.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "sim/engines/real/deadline_sleeper.h"
#include "sim/engines/real/realtime.h"
#include "sim/stats/stats.h"

namespace perflab::real {

double probe_length(double mean_latency_s) {
  if (!(mean_latency_s > kProbeShortest)) return kProbeShortest;  // NaN too
  return std::min(mean_latency_s, kProbeLongest);                 // infinity too (pareto, shape <= 1)
}

int probe_sleeps(double length_s) {
  const double fits = std::floor(kProbeBudget / length_s);
  return static_cast<int>(std::clamp(fits, double{kProbeFewest}, double{kProbeMost}));
}

WakeUpProbe measure_wake_up(double length_s, int sleeps, std::int64_t start_ns, const ProbeSleep& sleep) {
  WakeUpProbe probe;
  probe.length_s = length_s;
  probe.sleeps = sleeps;
  const auto length_ns = static_cast<std::int64_t>(std::llround(length_s * 1e9));
  std::vector<double> late;
  late.reserve(static_cast<size_t>(std::max(sleeps, 0)));
  std::int64_t woke = start_ns;
  for (int i = 0; i < sleeps; ++i) {
    const std::int64_t deadline = woke + length_ns;
    woke = sleep(deadline);
    late.push_back(static_cast<double>(woke - deadline) * 1e-9);
  }
  if (late.empty()) return probe;
  probe.wake_up_s = stats::quantile(late, 0.5);
  probe.max_s = *std::max_element(late.begin(), late.end());
  return probe;
}

Result<WakeUpProbe> probe_wake_up(double mean_latency_s) {
  const double length = probe_length(mean_latency_s);
  WakeUpProbe probe;
  try {
    // A thread of its own: SCHED_FIFO is per thread on Linux, and the caller's scheduling stays as it was.
    std::thread prober([&] {
      const bool realtime = request_realtime_priority();
      DeadlineSleeper sleeper;  // the real engine's sleep: 1 ns timer slack, absolute deadlines
      probe = measure_wake_up(length, probe_sleeps(length), monotonic_ns(), [&](std::int64_t deadline) {
        sleeper.sleep_until(deadline);
        return monotonic_ns();
      });
      probe.realtime = realtime;
    });
    prober.join();
  } catch (const std::system_error& error) {
    return Status::Error(std::string("cannot start the wake-up probe's thread: ") + error.what());
  }
  return probe;
}

}  // namespace perflab::real
