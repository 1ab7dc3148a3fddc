// See capture.h.
#include "sim/cli/capture.h"

#include <algorithm>
#include <cctype>

#include "sim/cli/commands.h"
#include "sim/runner/interrupt_guard.h"

namespace perflab {
namespace fs = std::filesystem;

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

namespace {
std::vector<CaptureCommand>& registry() {
  static std::vector<CaptureCommand> commands;
  return commands;
}
}  // namespace

CaptureRegistration::CaptureRegistration(CaptureCommand command) {
  auto& commands = registry();
  auto at = std::find_if(commands.begin(), commands.end(),
                         [&](const CaptureCommand& c) { return c.study > command.study; });
  commands.insert(at, std::move(command));
}

const std::vector<CaptureCommand>& capture_commands() {
  return registry();
}

}  // namespace perflab
