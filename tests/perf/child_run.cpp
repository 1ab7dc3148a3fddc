// Fork, run, report one ChildTiming over a pipe, reap.
#include "tests/perf/child_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace perflab::perf {
namespace {

bool read_all(int fd, void* data, size_t size) {
  auto* bytes = static_cast<char*>(data);
  for (size_t done = 0; done < size;) {
    ssize_t n = read(fd, bytes + done, size - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

ChildOutcome run_in_child(const std::function<ChildTiming()>& work) {
  ChildOutcome outcome;
  int fds[2];
  if (pipe(fds) != 0) {
    outcome.error = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) {
    outcome.error = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    close(fds[0]);
    ChildTiming timing = work();
    int status = timing.seconds >= 0 && write(fds[1], &timing, sizeof timing) == sizeof timing ? 0 : 1;
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(status);
  }
  close(fds[1]);
  bool reported = read_all(fds[0], &outcome.timing, sizeof outcome.timing);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.fork_to_reap_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!reported || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    outcome.error = "child failed (status " + std::to_string(status) + ")";
  }
  return outcome;
}

}  // namespace perflab::perf
