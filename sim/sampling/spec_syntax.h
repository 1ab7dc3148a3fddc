// The surface syntax of a distribution spec: "name(arg, arg, ...)" or a bare value such as "20ms".
// Splits the text and checks the parentheses; what the name and arguments mean is Distribution's job.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/common/status.h"

namespace perflab {

struct SpecCall {
  std::string name;               // "uniform"; empty for a bare value
  std::string inside;             // the text between the parentheses, trimmed (the bare value itself)
  std::vector<std::string> args;  // `inside` split at commas, each trimmed
};

// Errors name the spec and say what was expected: missing name, unbalanced parentheses, empty argument.
Result<SpecCall> split_spec(std::string_view spec);

// `text` without the spaces, tabs and line ends at either end.
std::string_view trim(std::string_view text);

}  // namespace perflab
