// in_child: runs a piece of a test in a forked child and returns what it printed. The parity tests run each
// engine so: SimGrid allows one engine per process, and the real engine asks for real-time scheduling,
// which the test process should not keep.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace perflab::test_support {

// Runs `work` in a forked child and returns what it returned (its last word: "error: ..." on failure).
inline std::string in_child(const std::function<std::string()>& work) {
  int fds[2];
  if (pipe(fds) != 0) return "error: pipe";
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const std::string out = work();
    const char* p = out.data();
    for (size_t left = out.size(); left > 0;) {
      ssize_t n = write(fds[1], p, left);
      if (n <= 0) _exit(2);
      p += n;
      left -= static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) out += "\nerror: the child did not exit cleanly";
  return out;
}

}  // namespace perflab::test_support
