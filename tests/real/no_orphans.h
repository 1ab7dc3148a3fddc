// For the real engine's end-to-end tests: a test process that adopts whatever its descendants leave behind
// (PR_SET_CHILD_SUBREAPER), so a peer process that outlived its run would be found here.
#pragma once

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace perflab::testing {

// Orphans killed with their parent (PR_SET_PDEATHSIG, delivered asynchronously) are reaped; true when no
// child is left alive within a second.
inline bool no_process_left() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == -1 && errno == ECHILD) return true;
    if (pid == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));  // one still alive: wait
  }
  return false;
}

// A test fixture whose process adopts orphans.
class AdoptsOrphans : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0); }
};

}  // namespace perflab::testing
