// See provenance.h.
#include "sim/gate/provenance.h"

#include <sys/utsname.h>
#include <unistd.h>  // environ

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <openssl/evp.h>
#include <xbt/base.h>  // before simgrid/version.h, which uses its declaration macros

#include <simgrid/version.h>

#include "sim/scenario/source_tree.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

std::string& command_line() {
  static std::string text;
  return text;
}

// One word as a POSIX shell reads it back: bare when it is plainly safe, else in single quotes.
std::string shell_quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./=:,+@%") == std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The first line a command prints (empty if it fails).
std::string first_line_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::array<char, 512> buffer{};
  std::string line;
  if (std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) line = buffer.data();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string git(const std::string& arguments) {
  return first_line_of("git -C " + shell_quoted(source_dir().string()) + " " + arguments + " 2>/dev/null");
}

std::string sha256_of_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "unknown";
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr);
  std::array<char, 1 << 16> buffer{};
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0)
    EVP_DigestUpdate(context.get(), buffer.data(), static_cast<size_t>(in.gcount()));
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(context.get(), digest.data(), &size);
  std::string hex = "sha256:";
  for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

std::string host() {
  utsname system{};
  std::string kernel = uname(&system) == 0 ? fmt::format("{} {}", system.sysname, system.release) : "unknown";
  return fmt::format("{}, {} cores, {}", cpu_model(), std::thread::hardware_concurrency(), kernel);
}

Provenance make_provenance() {
  Provenance p;
  p.commit = git("rev-parse HEAD");
  if (p.commit.empty()) p.commit = "unknown";
  // Like `git describe --dirty`: tracked files only; results/ is what a run writes, not what it ran.
  p.dirty = !git("status --porcelain --untracked-files=no -- . ':(exclude)results'").empty();
  p.compiler = fmt::format("{} {} {}", PERFLAB_COMPILER_ID, PERFLAB_COMPILER_VERSION, PERFLAB_BUILD_TYPE);
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  p.simgrid = fmt::format("{}.{}.{}", major, minor, patch);
  p.perflab = sha256_of_file("/proc/self/exe");
  p.host = host();
  p.command = command_line();
  p.allocator = allocator_environment();
  return p;
}

}  // namespace

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text.data();
}

std::string allocator_environment() {
  std::vector<std::string> settings;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string setting = *entry;
    const bool glibc_malloc =
        setting.rfind("MALLOC_", 0) == 0 ||
        (setting.rfind("GLIBC_TUNABLES=", 0) == 0 && setting.find("glibc.malloc.") != std::string::npos);
    if (glibc_malloc || setting.rfind("LD_PRELOAD=", 0) == 0) settings.push_back(setting);
  }
  std::sort(settings.begin(), settings.end());
  std::string text;
  for (const auto& setting : settings) text += (text.empty() ? "" : ", ") + setting;
  return text;
}

std::vector<std::pair<std::string, std::string>> Provenance::fields() const {
  std::vector<std::pair<std::string, std::string>> keys = {
      {"commit", commit},     {"dirty", dirty ? "true" : "false"},
      {"compiler", compiler}, {"simgrid", simgrid},
      {"perflab", perflab},   {"host", host},
      {"date", date},         {"command", command}};
  if (!allocator.empty()) keys.emplace_back("allocator", allocator);
  return keys;
}

std::string Provenance::ran() const {
  return "ran " + date + " on " + host + " at commit " + commit +
         (dirty ? " (with uncommitted changes)" : "") + ", executable " + perflab +
         (allocator.empty() ? "" : ", allocator environment: " + allocator);
}

void set_command_line(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) text += (i > 0 ? " " : "") + shell_quoted(argv[i]);
  command_line() = text;
}

const Provenance& current_provenance() {
  static Provenance provenance = make_provenance();
  provenance.date = utc_now();
  return provenance;
}

std::map<std::string, std::string> read_meta(const fs::path& file) {
  std::map<std::string, std::string> meta;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    auto eq = line.find(" = ");
    if (eq != std::string::npos) meta[line.substr(0, eq)] = line.substr(eq + 3);
  }
  return meta;
}

}  // namespace perflab
