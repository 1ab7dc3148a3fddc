// See interrupt_guard.h.
#include "sim/interrupt_guard.h"

namespace perflab {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void on_interrupt(int /*signal*/) {
  g_interrupted = 1;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  g_interrupted = 0;
  sigaction(SIGINT, &action, &previous_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_, nullptr);
}

bool InterruptGuard::interrupted() {
  return g_interrupted != 0;
}

}  // namespace perflab
