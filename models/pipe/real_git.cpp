// Commands of the real git children (see real_git.h).
#include "models/pipe/real_git.h"

#include <array>
#include <cstdio>
#include <memory>
#include <utility>

namespace perflab::pipe {

namespace {

// Runs `command` in a shell; its output (stdout and stderr) without trailing blanks, and its exit status.
std::pair<std::string, int> command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> out(popen((command + " 2>&1").c_str(), "r"), pclose);
  if (!out) return {"cannot run: " + command, -1};
  std::string text;
  std::array<char, 256> chunk{};
  while (fgets(chunk.data(), chunk.size(), out.get()) != nullptr) text += chunk.data();
  int status = pclose(out.release());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return {text, status};
}

}  // namespace

Result<std::string> make_repo(const std::filesystem::path& script, const std::filesystem::path& dir,
                              int size_mib) {
  if (!std::filesystem::exists(script))
    return Status::Error(script.string() + ": no repository generator there");
  auto [text, status] =
      command_output("'" + script.string() + "' '" + dir.string() + "' " + std::to_string(size_mib));
  std::string head = text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  if (status != 0 || head.size() != 40) {
    return Status::Error(script.string() + " failed (status " + std::to_string(status) + "): " + text);
  }
  return head;
}

std::string git_version() {
  auto [text, status] = command_output("git --version");
  const std::string prefix = "git version ";
  return status == 0 && text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : "?";
}

RealPumpOptions pack_objects_child(const std::filesystem::path& repo) {
  RealPumpOptions o;
  o.argv = {"git", "-C", repo.string(), "pack-objects", "--stdout", "--all", "-q"};
  return o;
}

RealPumpOptions upload_pack_child(const std::filesystem::path& repo, const std::string& head) {
  RealPumpOptions o;
  o.argv = {"git", "upload-pack", "--strict", (repo / ".git").string()};
  std::string want = "want " + head + " side-band-64k ofs-delta\n";
  char length[5];
  std::snprintf(length, sizeof(length), "%04zx", want.size() + 4);
  o.stdin_data = std::string(length) + want + "0000" + "0009done\n";
  o.side_band = true;
  return o;
}

}  // namespace perflab::pipe
