// Ctrl-C (SIGINT) and SIGTERM (kill, timeout, a CI runner or batch scheduler) during a run or a capture:
// while an InterruptGuard lives, either signal only records which one came, in a flag the caller polls (so
// it can stop its children, keep what is finished and remove its temporary files) before it exits with
// 128 + the signal (130, 143); the previous handlers are restored when it ends, whichever way it returns.
#pragma once

#include <csignal>

namespace perflab {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  static bool interrupted() { return signal_caught() != 0; }
  // SIGINT or SIGTERM once one came while a guard lived (until the next guard starts), else 0.
  static int signal_caught();

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace perflab
