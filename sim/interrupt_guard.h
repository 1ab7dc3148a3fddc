// Ctrl-C during a sweep: while an InterruptGuard lives, SIGINT only sets a flag the runner polls (so it can
// stop its children and keep the rows already finished); the previous handler is restored when it ends,
// whichever way the run returns.
#pragma once

#include <csignal>

namespace perflab {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  static bool interrupted();

 private:
  struct sigaction previous_ {};
};

}  // namespace perflab
