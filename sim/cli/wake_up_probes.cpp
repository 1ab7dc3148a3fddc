// See wake_up_probes.h.
#include "sim/cli/wake_up_probes.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "sim/text/value_format.h"

namespace perflab {
namespace {

// How the points were probed: "the median lateness of 201 deadline sleeps of 2 ms (the one-way latency) at
// each point, SCHED_FIFO".
std::string how(const std::vector<real::WakeUpProbe>& probes) {
  const real::WakeUpProbe& first = probes.front();
  const bool same = std::all_of(probes.begin(), probes.end(), [&](const real::WakeUpProbe& p) {
    return p.length_s == first.length_s && p.sleeps == first.sleeps;
  });
  const auto realtime = std::count_if(probes.begin(), probes.end(), [](const auto& p) { return p.realtime; });
  std::string text = same ? fmt::format(
                                "the median lateness of {} deadline sleeps of {} (the one-way latency) "
                                "at each point",
                                first.sleeps, format_quantity(first.length_s, Quantity::kDuration))
                          : "the median lateness of deadline sleeps of the one-way latency at each point";
  text += realtime == static_cast<long>(probes.size())
              ? ", SCHED_FIFO"
              : fmt::format(", SCHED_FIFO at {} of {} points", realtime, probes.size());
  return text;
}

}  // namespace

std::vector<double> PointWakeUps::seconds() const {
  std::vector<double> out;
  for (const auto& probe : probes) out.push_back(probe.wake_up_s);
  return out;
}

std::optional<MeasuredValue> PointWakeUps::measured() const {
  if (probes.empty()) return std::nullopt;
  const auto [low, high] = std::minmax_element(
      probes.begin(), probes.end(), [](const auto& a, const auto& b) { return a.wake_up_s < b.wake_up_s; });
  return MeasuredValue{"wake_up", low->wake_up_s * 1e3, high->wake_up_s * 1e3, "ms",
                       how(probes) +
                           ", probed before the real runs; the sim charged it after each wait that "
                           "waited"};
}

std::string PointWakeUps::note() const {
  if (probes.empty()) return "";
  const MeasuredValue range = *measured();
  return fmt::format(
      "wake-up (sim only; this machine's, measured before the real passes, not fitted): {:.0f}–{:.0f} µs "
      "over "
      "{} points, {}; charged after each wait that waited",
      range.low * 1e3, range.high * 1e3, probes.size(), how(probes));
}

Result<PointWakeUps> probe_wake_ups(const Scenario& real, const std::string& who) {
  PointWakeUps out;
  if (!real.study->probes_wake_up) return out;
  const double mean = real.network.latency.mean();
  const double length = real::probe_length(mean);
  std::fprintf(stderr, "%s: probing this machine's wake-up at %zu points, %d sleeps of %s each\n",
               who.c_str(), real.grid.size(), real::probe_sleeps(length),
               format_quantity(length, Quantity::kDuration).c_str());
  for (size_t p = 0; p < real.grid.size(); ++p) {
    auto probe = real::probe_wake_up(mean);
    if (!probe.ok()) return probe.status();
    out.probes.push_back(*probe);
  }
  return out;
}

}  // namespace perflab
