// See dask_runner.h.
#include "sim/runner/dask_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/runner/row_codec.h"
#include "sim/scenario/source_tree.h"

extern char** environ;

namespace perflab {
namespace fs = std::filesystem;
namespace {

// Closes a file descriptor when it goes out of scope.
struct OwnedFd {
  int fd = -1;
  ~OwnedFd() {
    if (fd >= 0) close(fd);
  }
};

// This environment with PYTHONPATH naming this tree's Python package and this build's extension first.
std::vector<std::string> python_environment() {
  std::string python_path = "PYTHONPATH=" + this_tree_python_path();
  if (const char* inherited = std::getenv("PYTHONPATH")) python_path += std::string(":") + inherited;
  std::vector<std::string> env = {python_path};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("PYTHONPATH=", 0) != 0) env.emplace_back(*e);
  }
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& texts) {
  std::vector<char*> result;
  for (auto& text : texts) result.push_back(text.data());
  result.push_back(nullptr);
  return result;
}

}  // namespace

Result<RunTable> run_on_dask(const Scenario& scenario, const std::string& scheduler,
                             const std::vector<Override>& overrides) {
  std::vector<std::string> args = {"/usr/bin/python3", "-m", "perflab.cluster_rows", scheduler,
                                   fs::absolute(scenario.file).string()};
  for (const Override& o : overrides) args.insert(args.end(), {"--set", o.key + "=" + o.value});
  std::vector<std::string> env = python_environment();

  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    return Status::Error(std::string("cannot make a pipe: ") + std::strerror(errno));
  OwnedFd read_end{out[0]}, write_end{out[1]};
  char error_template[] = "/tmp/perflab-dask-stderr-XXXXXX";
  OwnedFd error_fd{mkstemp(error_template)};
  if (error_fd.fd < 0)
    return Status::Error(std::string("cannot make a temporary file: ") + std::strerror(errno));
  const fs::path error_file = error_template;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, error_fd.fd, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, args[0].c_str(), &actions, nullptr, pointers(args).data(), pointers(env).data());
  posix_spawn_file_actions_destroy(&actions);
  close(write_end.fd);
  write_end.fd = -1;
  if (spawned != 0) {
    fs::remove(error_file);
    return Status::Error("--scheduler needs /usr/bin/python3 (" + std::string(std::strerror(spawned)) + ")");
  }

  RunTable table = RunTable::empty(scenario);
  std::string text, bad_row;
  char buffer[65536];
  for (ssize_t n; (n = read(read_end.fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<size_t>(n));
    for (size_t end; (end = text.find('\n')) != std::string::npos; text.erase(0, end + 1)) {
      std::optional<RunRow> row = decode_row(text.substr(0, end));
      if ((!row || !table.place(std::move(*row))) && bad_row.empty()) bad_row = text.substr(0, end);
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream error_stream(error_file);
  std::stringstream errors;
  errors << error_stream.rdbuf();
  fs::remove(error_file);
  std::string reason = errors.str();
  while (!reason.empty() && reason.back() == '\n') reason.pop_back();
  if (const size_t last = reason.rfind('\n'); last != std::string::npos)
    reason = reason.substr(last + 1);  // a traceback's last line says what went wrong
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                              : "was killed by signal " + std::to_string(WTERMSIG(status));
    return Status::Error("--scheduler " + scheduler + ": " +
                         (reason.empty() ? "python3 -m perflab.cluster_rows " + how : reason));
  }
  if (!bad_row.empty())
    return Status::Error("--scheduler " + scheduler + ": not a row of " + scenario.name + ": " +
                         bad_row.substr(0, 80));
  if (table.ran() != table.total_runs())
    return Status::Error("--scheduler " + scheduler + ": " + std::to_string(table.ran()) + " of " +
                         std::to_string(table.total_runs()) + " runs came back");
  return table;
}

}  // namespace perflab
