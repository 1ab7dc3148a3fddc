// WakeUpProbe: this machine's wake-up latency as the real engine meets it, measured before a point's real
// runs so that the sim twin of the point can charge it (the SimGrid transport's per-run wake_up,
// sim/engines/transport/sim_transport.h). It is a measurement, not a calibration: a row of deadline sleeps
// as DeadlineSleeper's (absolute CLOCK_MONOTONIC deadlines, 1 ns timer slack), each as long as the point's
// mean one-way latency (on this VM a wake-up is later after a longer idle: /work/shared/notes/sim-vs-real.md,
// "Timers"), on a thread of its own at the real engine's priority (SCHED_FIFO when it can be had); the
// median lateness is the wake-up. Short: about half a second.
#pragma once

#include <cstdint>
#include <functional>

#include "models/common/status.h"

namespace perflab::real {

struct WakeUpProbe {
  double length_s = 0;    // each sleep's length: the idle it wakes from
  int sleeps = 0;         // how many it made
  double wake_up_s = 0;   // the median lateness: the wake-up
  double max_s = 0;       // the latest
  bool realtime = false;  // it ran SCHED_FIFO, as the real engine's processes do when they can
};

// Shorter sleeps are not sleeps on this kernel (waking costs about as much), and longer ones would make the
// probe slow; a mean latency outside is probed at the nearest bound.
inline constexpr double kProbeShortest = 50e-6;  // s
inline constexpr double kProbeLongest = 50e-3;   // s
inline constexpr double kProbeBudget = 0.5;      // s of sleeping, about
inline constexpr int kProbeFewest = 21;
inline constexpr int kProbeMost = 201;

// The length of the probe's sleeps for a point whose mean one-way latency is `mean_latency_s`.
double probe_length(double mean_latency_s);
// How many sleeps of `length_s` it makes: as many as kProbeBudget holds, within [kProbeFewest, kProbeMost].
int probe_sleeps(double length_s);

// One sleep of a probe: waits until `deadline_ns` (monotonic_ns() time); returns the time it woke at.
using ProbeSleep = std::function<std::int64_t(std::int64_t deadline_ns)>;

// `sleeps` sleeps of `length_s` each, the first from `start_ns`, each next one from the moment the previous
// woke (so every sleep idles the whole length); the median and the largest lateness. The measurement itself,
// for any clock (tests give it a scripted one).
WakeUpProbe measure_wake_up(double length_s, int sleeps, std::int64_t start_ns, const ProbeSleep& sleep);

// Probes this machine for a point whose mean one-way latency is `mean_latency_s`: probe_sleeps() real
// deadline sleeps of probe_length(), on a new thread that asks for SCHED_FIFO first.
Result<WakeUpProbe> probe_wake_up(double mean_latency_s);

}  // namespace perflab::real
