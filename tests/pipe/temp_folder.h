// Tests of the real pump: a scratch folder under the system's temp directory, removed with everything in
// it when the test ends.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace perflab::pipe {

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pipe-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace perflab::pipe
