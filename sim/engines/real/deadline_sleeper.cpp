// See deadline_sleeper.h.
#include "sim/engines/real/deadline_sleeper.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

namespace perflab::real {
namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;

timespec to_timespec(std::int64_t ns) {
  return {static_cast<time_t>(ns / kNsPerSecond), static_cast<long>(ns % kNsPerSecond)};
}

std::int64_t clock_ns(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<std::int64_t>(now.tv_sec) * kNsPerSecond + now.tv_nsec;
}

// Timer slack is per thread: set it on the first sleep of each thread.
void lower_timer_slack() {
  thread_local bool lowered = false;
  if (!lowered) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    lowered = true;
  }
}

}  // namespace

std::int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }

void OversleepStats::add(const OversleepStats& other) {
  sleeps += other.sleeps;
  total_ns += other.total_ns;
  max_ns = std::max(max_ns, other.max_ns);
}

void DeadlineSleeper::sleep_until(std::int64_t deadline_ns) {
  if (monotonic_ns() >= deadline_ns) return;
  lower_timer_slack();
  const timespec deadline = to_timespec(deadline_ns);
  // Only a signal interrupts an absolute sleep, and the deadline does not move: bounded by the signals
  // that arrive before it.
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
  }
  std::int64_t late = monotonic_ns() - deadline_ns;
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.sleeps += 1;
  stats_.total_ns += late;
  stats_.max_ns = std::max(stats_.max_ns, late);
}

OversleepStats DeadlineSleeper::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void burn_cpu(double seconds) {
  if (!(seconds > 0)) return;
  const std::int64_t until =
      clock_ns(CLOCK_THREAD_CPUTIME_ID) + static_cast<std::int64_t>(seconds * kNsPerSecond);
  while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < until) {
  }
}

}  // namespace perflab::real
