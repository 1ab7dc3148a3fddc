// Checks of flag values with the error every other bad input gets: the text given and what was expected
// (not CLI11's numeric range).
#pragma once

#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>

namespace perflab {

inline CLI::Validator whole_number_at_least(long least) {
  return {[least](const std::string& text) -> std::string {
            char* end = nullptr;
            const long value = std::strtol(text.c_str(), &end, 10);
            if (!text.empty() && end == text.c_str() + text.size() && value >= least) return "";
            return "\"" + text + "\" is not valid, expected an integer >= " + std::to_string(least);
          },
          "INTEGER>=" + std::to_string(least)};
}

// A path flag (--out): given, it must name something; an empty one would quietly write nothing.
inline CLI::Validator non_empty_path() {
  return {[](const std::string& text) -> std::string {
            return text.empty() ? "an empty path is not valid, expected a folder or file name" : "";
          },
          "PATH"};
}

}  // namespace perflab
