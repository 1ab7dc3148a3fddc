// PeerProcess: the other end of a real-engine run (e.g. the controller), forked from the run's process.
// It cannot outlive its parent: it asks the kernel for SIGKILL when the parent dies (PR_SET_PDEATHSIG), so a
// run killed for a timeout or by Ctrl-C takes it along, and the destructor kills and reaps it if it is
// still running. Its end is described the way the runner describes a failed run.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

#include "models/common/status.h"

namespace perflab::real {

class PeerProcess {
 public:
  // Forks; the child is named `name` (ps, /proc/PID/comm; 15 characters), runs `body` and exits with
  // what it returns.
  static Result<PeerProcess> spawn(const std::string& name, const std::function<int()>& body);

  PeerProcess(PeerProcess&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  PeerProcess& operator=(PeerProcess&&) = delete;
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;
  ~PeerProcess() { kill_now(); }

  pid_t pid() const { return pid_; }
  // Waits up to `timeout_ms` for the process to end: OK for exit status 0, otherwise how it ended. On
  // timeout it is killed.
  Status wait(int timeout_ms);
  // If it has already ended, how (an error) ; OK while it runs or after a clean exit.
  Status poll_ended();
  void kill_now();

 private:
  explicit PeerProcess(pid_t pid) : pid_(pid) {}
  static Status describe(int wait_status);

  pid_t pid_ = -1;
};

}  // namespace perflab::real
