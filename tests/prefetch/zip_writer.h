// WriteZip: makes small JARs for the tests (entry name -> content) with libzip.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace perflab::prefetch::testing {

// Writes the entries in order (names must differ); returns false if libzip fails.
bool write_zip(const std::string& path, const std::vector<std::pair<std::string, std::string>>& entries);

// A fresh directory under the system temp directory, removed by the destructor.
class TempDirectory {
 public:
  TempDirectory();
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace perflab::prefetch::testing
