// ReadClasspathFile: the classpath file format of the prefetch study; see classpath_file.h.
#include "models/prefetch/classpath_file.h"

#include <filesystem>
#include <fstream>

#include "models/common/printable.h"

namespace perflab::prefetch {
namespace {

std::string trimmed(const std::string& line) {
  const char* k_space = " \t\r";
  const std::size_t begin = line.find_first_not_of(k_space);
  if (begin == std::string::npos) return "";
  return line.substr(begin, line.find_last_not_of(k_space) - begin + 1);
}

}  // namespace

Result<std::vector<std::string>> read_classpath_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) return Status::Error(path + ": cannot open the classpath file");
  const std::filesystem::path directory = std::filesystem::path(path).parent_path();
  std::vector<std::string> jars;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    const std::string jar = trimmed(line);
    if (jar.empty() || jar.front() == '#') continue;
    if (!is_printable(jar)) {
      return Status::Error(path + ":" + std::to_string(number) + ": \"" + printable(jar, 40) +
                           "\" is not a JAR path (control characters or bytes that are not UTF-8), expected "
                           "one JAR path per line");
    }
    const std::filesystem::path jar_path(jar);
    jars.push_back(jar_path.is_absolute() ? jar : (directory / jar_path).lexically_normal().string());
  }
  if (file.bad()) return Status::Error(path + ": error while reading the classpath file");
  if (jars.empty()) return Status::Error(path + ": no JAR paths, expected one JAR path per line");
  return jars;
}

}  // namespace perflab::prefetch
