// See peer_process.h.
#include "sim/engines/real/peer_process.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "sim/engines/real/deadline_sleeper.h"

namespace perflab::real {

Result<PeerProcess> PeerProcess::spawn(const std::string& name, const std::function<int()>& body) {
  pid_t parent = getpid();
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return Status::Error(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before the request took effect
    prctl(PR_SET_NAME, name.c_str());
    int code = body();
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);
  }
  return PeerProcess(pid);
}

Status PeerProcess::describe(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    int sig = WTERMSIG(wait_status);
    return Status::Error("killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")");
  }
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != 0)
    return Status::Error("exited with status " + std::to_string(WEXITSTATUS(wait_status)));
  return Status::OK();
}

Status PeerProcess::poll_ended() {
  if (pid_ < 0) return Status::OK();
  int wait_status = 0;
  pid_t ended = waitpid(pid_, &wait_status, WNOHANG);
  if (ended != pid_) return Status::OK();
  pid_ = -1;
  return describe(wait_status);
}

Status PeerProcess::wait(int timeout_ms) {
  if (pid_ < 0) return Status::OK();
  const std::int64_t give_up = monotonic_ns() + static_cast<std::int64_t>(timeout_ms) * 1'000'000;
  DeadlineSleeper sleeper;
  for (std::int64_t next = monotonic_ns(); next < give_up; next += 1'000'000) {  // every ms until the limit
    int wait_status = 0;
    if (waitpid(pid_, &wait_status, WNOHANG) == pid_) {
      pid_ = -1;
      return describe(wait_status);
    }
    sleeper.sleep_until(next + 1'000'000);
  }
  kill_now();
  return Status::Error("did not exit within " + std::to_string(timeout_ms) + " ms, killed");
}

void PeerProcess::kill_now() {
  if (pid_ < 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

}  // namespace perflab::real
