#include "tests/sim/cli_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sim/gate/results_reader.h"

namespace perflab::testing {

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "perflab-test-XXXXXX").string();
  path_ = mkdtemp(pattern.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<CsvRow> parse_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  auto header = split_csv_line(line);
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    auto values = split_csv_line(line);
    CsvRow row;
    for (size_t i = 0; i < header.size() && i < values.size(); ++i) row[header[i]] = values[i];
    rows.push_back(row);
  }
  return rows;
}

CliResult run_perflab(const std::string& args, const std::map<std::string, std::string>& env,
                      const std::filesystem::path& input) {
  TempDir capture;
  std::string prefix;
  for (const auto& [name, value] : env) prefix += name + "='" + value + "' ";
  std::string command = prefix + std::string(PERFLAB_BINARY) + " " + args + " >" +
                        (capture / "out").string() + " 2>" + (capture / "err").string() + " <" +
                        (input.empty() ? std::string("/dev/null") : input.string());
  int raw = std::system(command.c_str());
  CliResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = read_file(capture / "out");
  result.err = read_file(capture / "err");
  return result;
}

std::string pingpong_scenario(const std::string& name, const std::string& extra, const std::string& latency) {
  return "[scenario]\nname = \"" + name + "\"\nstudy = \"pingpong\"\n\n[network]\nlatency = \"" + latency +
         "\"\nbandwidth = \"100MBps\"\n\n" + extra;
}

}  // namespace perflab::testing
