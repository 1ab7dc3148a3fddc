// Text split at a separator, keeping empty fields ("a::b" is a, "", b; "a:" is a, ""): classpaths
// (models/prefetch/java_command.cpp), request-log lines (models/dispatcher/request_log.cpp), tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace perflab {

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

}  // namespace perflab
