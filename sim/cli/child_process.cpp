// See child_process.h.
#include "sim/cli/child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>

#include "sim/runner/interrupt_guard.h"

extern char** environ;

namespace perflab {
namespace fs = std::filesystem;
namespace {

constexpr int kPollMs = 10;     // how often run_child looks whether its child ended or a signal came
constexpr int kGraceMs = 2000;  // from the signal passed on to a child to SIGKILL

}  // namespace

std::string ChildExit::describe() const {
  return exited ? "exited with status " + std::to_string(status)
                : "was killed by signal " + std::to_string(signal);
}

Result<ChildExit> run_child(const std::vector<std::string>& argv, const std::string& stdout_file,
                            const std::string& stderr_file) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdout_file.empty())
    posix_spawn_file_actions_addopen(&actions, 1, stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!stderr_file.empty())
    posix_spawn_file_actions_addopen(&actions, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return Status::Error("cannot run \"" + argv[0] + "\" (" + std::strerror(spawned) + ")");
  ChildExit exit;
  int status = 0;
  for (int waited_ms = 0;; waited_ms += kPollMs) {
    const pid_t ended = waitpid(pid, &status, WNOHANG);
    if (ended == pid) break;
    if (ended < 0 && errno != EINTR)
      return Status::Error("waiting for \"" + argv[0] + "\": " + std::strerror(errno));
    if (exit.interrupted == 0 && InterruptGuard::interrupted()) {
      exit.interrupted = InterruptGuard::signal_caught();
      kill(pid, exit.interrupted);  // as if it had been sent to the child too, as Ctrl-C is
      waited_ms = 0;
    } else if (exit.interrupted != 0 && waited_ms >= kGraceMs) {
      kill(pid, SIGKILL);
    }
    usleep(kPollMs * 1000);
  }
  if (exit.interrupted == 0) exit.interrupted = InterruptGuard::signal_caught();  // it ended of it too
  exit.exited = WIFEXITED(status);
  exit.status = exit.exited ? WEXITSTATUS(status) : -1;
  exit.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return exit;
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& word : argv) {
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                            "0123456789_./:=@%+-,") == std::string::npos;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += (text.empty() ? "" : " ") + (plain ? word : quoted + "'");
  }
  return text;
}

std::string on_one_line(const std::string& text) {
  std::string line;
  for (char c : text) line += c == '\n' ? std::string("\\n") : std::string(1, c);
  return line;
}

std::string last_lines(const fs::path& file, int count) {
  std::ifstream in(file);
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (static_cast<int>(lines.size()) > count) lines.pop_front();
  }
  std::string text;
  for (const auto& l : lines) text += "\n  | " + l;
  return text.empty() ? "\n  (it wrote nothing on stderr)" : text;
}

}  // namespace perflab
