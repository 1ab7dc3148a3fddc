// Runs the perflab binary the way a user does, capturing exit status, stdout and stderr (for CLI tests).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace perflab::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

// `args` is appended to the perflab binary path as shell words (quote them as in a shell); `env` adds
// environment variables for this one run; stdin reads `input` (nothing if empty).
CliResult run_perflab(const std::string& args, const std::map<std::string, std::string>& env = {},
                      const std::filesystem::path& input = {});

std::string read_file(const std::filesystem::path& file);
void write_file(const std::filesystem::path& file, const std::string& text);

// The rows of a CSV file's text as column -> value maps (RFC 4180 quotes understood).
using CsvRow = std::map<std::string, std::string>;
std::vector<CsvRow> parse_csv(const std::string& text);

// A fresh empty folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// A scenario for the pingpong study with the given extra TOML appended to a valid header.
std::string pingpong_scenario(const std::string& name, const std::string& extra,
                              const std::string& latency = "constant(20ms)");

}  // namespace perflab::testing
