// DeadlineSleeper: the real engine's one way to wait. Every sleep is to an absolute CLOCK_MONOTONIC
// deadline (clock_nanosleep with TIMER_ABSTIME), so a late wake-up never pushes the next deadline back, and
// the calling thread's timer slack is set to 1 ns first (Linux defaults to 50 µs; prctl(2)). Linux never
// wakes early but wakes late, and this VM later still after long idles, so each sleeper records how late
// each wake-up was: the run reports it beside its result (its "oversleep").
#pragma once

#include <cstdint>
#include <mutex>

namespace perflab::real {

// Nanoseconds on CLOCK_MONOTONIC, the clock every process of a run shares.
std::int64_t monotonic_ns();

struct OversleepStats {
  std::uint64_t sleeps = 0;  // sleeps that had a deadline in the future
  std::int64_t total_ns = 0;
  std::int64_t max_ns = 0;

  void add(const OversleepStats& other);
  double mean_s() const { return sleeps == 0 ? 0.0 : static_cast<double>(total_ns) / sleeps * 1e-9; }
};

// Thread-safe: several threads of one process may share a sleeper (their stats add up).
class DeadlineSleeper {
 public:
  // Sleeps until `deadline_ns` (monotonic_ns() time); returns at once when it has passed.
  void sleep_until(std::int64_t deadline_ns);
  OversleepStats stats() const;

 private:
  mutable std::mutex mutex_;
  OversleepStats stats_;
};

// Spends `seconds` of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID) in a busy loop: the CPU a model
// charges as a cost (a JVM defining a class) is spent for real. Preemption shows up as extra wall time.
void burn_cpu(double seconds);

}  // namespace perflab::real
