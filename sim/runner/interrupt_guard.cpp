// See interrupt_guard.h.
#include "sim/runner/interrupt_guard.h"

namespace perflab {
namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_signal(int signal) {
  g_signal = signal;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  g_signal = 0;
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

int InterruptGuard::signal_caught() {
  return g_signal;
}

}  // namespace perflab
