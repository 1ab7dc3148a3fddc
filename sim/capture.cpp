// The capture commands' output folder and child processes; see capture.h.
#include "sim/capture.h"

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

#include "sim/commands.h"
#include "sim/interrupt_guard.h"

extern char** environ;

namespace perflab {
namespace fs = std::filesystem;
namespace {

constexpr int kPollMs = 10;     // how often run_child looks whether its child ended or a signal came
constexpr int kGraceMs = 2000;  // from the signal passed on to a child to SIGKILL

}  // namespace

namespace {

Status check_name(const std::string& name) {
  const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._+-", c) != nullptr;
  });
  if (name.empty() || !plain || name[0] == '.' || name[0] == '-')
    return Status::Error("--name \"" + name +
                         "\" is not a plain file name, expected letters, digits, '.', '_', '+' or '-' (not "
                         "first), no folder: the files go into --out");
  return Status::OK();
}

// The first few names in `dir` that are not dot-files, "a, b, c, ...".
std::string visible_entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name[0] != '.') names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::string text;
  for (size_t i = 0; i < names.size() && i < 3; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > 3) text += ", ...";
  return text;
}

}  // namespace

Result<CaptureFolder> CaptureFolder::Create(const CaptureFlags& flags) {
  const std::string& out = flags.out;
  if (out.empty()) return Status::Error("--out is empty, expected the folder to write the capture to");
  if (!flags.name.empty())
    if (Status name = check_name(flags.name); !name.ok()) return name;
  std::error_code error;
  const fs::path dir = fs::absolute(out, error).lexically_normal();
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    return Status::Error("--out " + out + " is not a folder, expected a folder (made if missing)");
  if (const std::string held = fs::exists(dir, error) ? visible_entries(dir) : "";
      !held.empty() && !flags.force)
    return Status::Error(
        "--out " + out + " already holds " + held +
        ", expected a new or empty folder: a second capture there would overwrite or orphan "
        "the first's files. Give another --out, or --force to replace files of the same name");
  const bool created = !fs::exists(dir, error);
  if (created && !fs::create_directories(dir, error))
    return Status::Error("--out " + out + ": cannot make the folder (" + error.message() + ")");
  std::string pattern = (dir / ".perflab-capture-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    const std::string why = std::strerror(errno);
    if (created) fs::remove(dir, error);
    return Status::Error("--out " + out + ": cannot write in it (" + why + ")");
  }
  return CaptureFolder(dir, pattern, created);
}

CaptureFolder::CaptureFolder(CaptureFolder&& other) noexcept
    : out_(std::move(other.out_)), staging_(std::move(other.staging_)), created_out_(other.created_out_) {
  other.staging_.clear();
  other.created_out_ = false;
}

CaptureFolder::~CaptureFolder() {
  if (staging_.empty()) return;
  std::error_code error;
  fs::remove_all(staging_, error);
  if (created_out_) fs::remove(out_, error);  // only if empty: a capture never deletes what it did not write
}

Result<std::vector<fs::path>> CaptureFolder::commit() {
  std::vector<fs::path> written;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(staging_, error)) {
    const fs::path target = out_ / entry.path().filename();
    fs::rename(entry.path(), target, error);
    if (error) return Status::Error(target.string() + ": cannot write (" + error.message() + ")");
    written.push_back(target);
  }
  fs::remove_all(staging_, error);
  staging_.clear();
  std::sort(written.begin(), written.end());
  return written;
}

int capture_interrupted(const std::string& command) {
  return say_interrupted(command, InterruptGuard::signal_caught(), ", nothing written");
}

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
