// See python_renderer.h.
#include "sim/report/python_renderer.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/source_tree.h"

extern char** environ;

namespace perflab {
namespace fs = std::filesystem;
namespace {

// Runs `args` with this environment, PYTHONPATH naming this tree's Python package and this build's
// extension first (the site reads the studies' units through perflab.describe).
int spawn_wait(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::string python_path = "PYTHONPATH=" + this_tree_python_path();
  if (const char* inherited = std::getenv("PYTHONPATH")) python_path += std::string(":") + inherited;
  std::vector<char*> env = {python_path.data()};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("PYTHONPATH=", 0) != 0) env.push_back(*e);
  }
  env.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), env.data()) != 0) return 127;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

Status run_python(const std::string& script_name, std::vector<std::string> args, const std::string& what) {
  fs::path script = source_dir() / "analysis" / "python" / script_name;
  args.insert(args.begin(), {"/usr/bin/python3", script.string()});
  int status = spawn_wait(std::move(args));
  if (status != 0)
    return Status::Error(script.string() + " exited with status " + std::to_string(status) + " (" + what +
                         ")");
  return Status::OK();
}

Status render_results(const fs::path& results, const std::vector<std::string>& print) {
  std::vector<std::string> args = {results.string(), (source_dir() / "scenarios").string()};
  if (!print.empty()) {
    args.emplace_back("--print");
    args.insert(args.end(), print.begin(), print.end());
  }
  return run_python(
      "render.py", args,
      "the results' figures, README.md and site; needs /usr/bin/python3 with pandas and markdown, "
      "and the _perflab extension built");
}

}  // namespace perflab
