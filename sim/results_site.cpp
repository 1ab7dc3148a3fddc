// See results_site.h.
#include "sim/results_site.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/provenance.h"
#include "sim/source_tree.h"

extern char** environ;

namespace perflab {
namespace fs = std::filesystem;
namespace {

// This environment, PYTHONPATH naming this tree's Python package and this build's extension first (the
// site reads the studies' units through perflab.describe).
std::vector<std::string> python_environment() {
  std::string python_path =
      "PYTHONPATH=" + (source_dir() / "analysis" / "python").string() + ":" + python_extension_dir().string();
  if (const char* inherited = std::getenv("PYTHONPATH")) python_path += std::string(":") + inherited;
  std::vector<std::string> env = {python_path};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("PYTHONPATH=", 0) != 0) env.emplace_back(*e);
  }
  return env;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Starts /usr/bin/python3 analysis/python/<script_name> `args` with python_environment(), its stdin from
// `stdin_fd` (-1: this process's own); 0 when it could not start.
pid_t spawn_python(const std::string& script_name, std::vector<std::string> args, int stdin_fd = -1) {
  args.insert(args.begin(),
              {"/usr/bin/python3", (source_dir() / "analysis" / "python" / script_name).string()});
  std::vector<std::string> env = python_environment();
  std::vector<char*> argv = pointers_to(args), envp = pointers_to(env);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdin_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : 0;
}

int wait_exit_status(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Status script_status(const std::string& script_name, int status, const std::string& what) {
  if (status == 0) return Status::OK();
  return Status::Error((source_dir() / "analysis" / "python" / script_name).string() +
                       " exited with status " + std::to_string(status) + " (" + what + ")");
}

constexpr const char* kPlotScript = "plot_results.py";
constexpr const char* kPlotsNeed = "the study plots; needs /usr/bin/python3 with pandas and matplotlib";

}  // namespace

Status run_python(const std::string& script_name, std::vector<std::string> args, const std::string& what) {
  pid_t pid = spawn_python(script_name, std::move(args));
  return script_status(script_name, pid == 0 ? 127 : wait_exit_status(pid), what);
}

Status write_results_site(const fs::path& results) {
  return run_python(
      "build_site.py", {results.string(), (source_dir() / "scenarios").string()},
      "the results site; needs /usr/bin/python3 with pandas and markdown, and the _perflab extension built");
}

Status draw_study_plots(const fs::path& results) {
  return run_python(kPlotScript, {results.string()}, kPlotsNeed);
}

StudyPlotter::StudyPlotter(const fs::path& results) : results_(results) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  pid_ = spawn_python(kPlotScript, {results.string(), "--stdin"}, fds[0]);
  close(fds[0]);
  if (pid_ == 0) {
    close(fds[1]);
    return;
  }
  to_plotter_ = fds[1];
}

StudyPlotter::~StudyPlotter() {
  if (pid_ != 0) {
    kill(pid_, SIGKILL);
    finish();
  }
}

void StudyPlotter::draw(const std::string& study) {
  if (std::find(sent_.begin(), sent_.end(), study) != sent_.end()) return;
  sent_.push_back(study);
  if (to_plotter_ < 0) return;
  std::string line = study + "\n";
  // A plotter that has gone makes the write fail with EPIPE; its SIGPIPE is held and dropped, not fatal.
  sigset_t sigpipe, old_mask;
  sigemptyset(&sigpipe);
  sigaddset(&sigpipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &sigpipe, &old_mask);
  bool sent = write(to_plotter_, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  if (!sent) {
    const timespec no_wait{};
    sigtimedwait(&sigpipe, nullptr, &no_wait);
    close(to_plotter_);  // finish() reports how the plotter ended
    to_plotter_ = -1;
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
}

Status StudyPlotter::finish() {
  if (pid_ == 0) return script_status(kPlotScript, 127, kPlotsNeed);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(results_, ec)) {
    if (entry.is_directory()) draw(entry.path().filename().string());
  }
  if (to_plotter_ >= 0) close(to_plotter_);
  to_plotter_ = -1;
  int status = wait_exit_status(pid_);
  pid_ = 0;
  return script_status(kPlotScript, status, kPlotsNeed);
}

Status write_check_record(const fs::path& results, int exit_status, bool quick, bool full) {
  const Provenance& build = current_provenance();
  std::string scope = quick ? "quick" : full ? "full" : "headline";
  const char* result = exit_status == 0 ? "passed" : exit_status == 1 ? "failed" : "not run to the end";
  fs::path file = results / "check.txt";
  {
    std::ofstream out(file);
    out << "result = " << result << "\nexit = " << exit_status << "\nscope = " << scope << ", every study\n";
    for (const auto& [key, value] : build.fields()) {
      if (key == "commit" || key == "dirty" || key == "date" || key == "host")
        out << key << " = " << value << "\n";
    }
    if (!out) return Status::Error(file.string() + ": cannot write");
  }
  return write_results_site(results);
}

}  // namespace perflab
