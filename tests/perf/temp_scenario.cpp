// mkdtemp + one file.
#include "tests/perf/temp_scenario.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace perflab::perf {

TempScenario::TempScenario(const std::string& toml) {
  std::string pattern = (std::filesystem::temp_directory_path() / "perflab-perf-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + pattern);
  }
  dir_ = pattern;
  file_ = dir_ / "scenario.toml";
  std::ofstream(file_) << toml;
}

TempScenario::~TempScenario() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace perflab::perf
