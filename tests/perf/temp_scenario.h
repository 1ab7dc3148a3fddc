// A scenario file written to a fresh temporary directory, removed again when the object goes away.
#pragma once

#include <filesystem>
#include <string>

namespace perflab::perf {

class TempScenario {
 public:
  explicit TempScenario(const std::string& toml);
  ~TempScenario();
  TempScenario(const TempScenario&) = delete;
  TempScenario& operator=(const TempScenario&) = delete;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path dir_;
  std::filesystem::path file_;
};

}  // namespace perflab::perf
