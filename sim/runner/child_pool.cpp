// See child_pool.h.
#include "sim/runner/child_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace perflab {
namespace {

void write_all(int fd, const std::string& text) {
  for (size_t written = 0; written < text.size();) {
    ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

}  // namespace

Status ChildPool::spawn(size_t task, const std::function<std::string()>& work) {
  int fds[2];
  if (pipe(fds) != 0) return Status::Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Status::Error(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // A run dies with the runner, however the runner ends (SIGKILL included), and so, through theirs, the
    // processes the run forks (sim/engines/real/peer_process.h).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before the request took effect
    // A run starts with default signal handling, whatever the parent installed (Ctrl-C and SIGTERM, or a
    // Python parent's faulthandler, which would print the parent's Python stack when a run crashes).
    for (int sig : {SIGINT, SIGTERM, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, SIG_DFL);
    close(fds[0]);
    write_all(fds[1], work());
    close(fds[1]);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  close(fds[1]);
  children_[pid] = Child{task, fds[0], "", std::chrono::steady_clock::now(), ""};
  return Status::OK();
}

Result<std::vector<ChildPool::Ended>> ChildPool::collect(std::chrono::milliseconds timeout) {
  std::vector<pollfd> polls;
  std::vector<pid_t> owners;
  for (auto& [pid, child] : children_) {
    polls.push_back({child.fd, POLLIN, 0});
    owners.push_back(pid);
  }
  std::vector<Ended> ended;
  int ready = poll(polls.data(), polls.size(), static_cast<int>(timeout.count()));
  if (ready < 0 && errno != EINTR) return Status::Error(std::string("poll failed: ") + std::strerror(errno));
  for (size_t i = 0; ready > 0 && i < polls.size(); ++i) {
    if ((polls[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    pid_t pid = owners[i];
    Child& child = children_.at(pid);
    char buffer[4096];
    ssize_t n = read(child.fd, buffer, sizeof buffer);
    if (n > 0) {
      child.output.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      int status = 0;
      waitpid(pid, &status, 0);
      close(child.fd);
      ended.push_back({child.task, std::move(child.output), status, std::move(child.kill_reason)});
      children_.erase(pid);
    }
  }
  return ended;
}

void ChildPool::kill_overdue(double limit_s, const std::string& reason) {
  if (limit_s <= 0) return;
  auto now = std::chrono::steady_clock::now();
  for (auto& [pid, child] : children_) {
    double elapsed = std::chrono::duration<double>(now - child.started).count();
    if (elapsed > limit_s && child.kill_reason.empty()) {
      child.kill_reason = reason;
      kill(pid, SIGKILL);
    }
  }
}

void ChildPool::kill_all() {
  for (auto& [pid, child] : children_) kill(pid, SIGKILL);
  for (auto& [pid, child] : children_) {
    waitpid(pid, nullptr, 0);
    close(child.fd);
  }
  children_.clear();
}

}  // namespace perflab
