// TOML values to typed parameter values: the one place that knows how a scenario file spells an integer,
// a duration, a distribution or a path, and how to say where a wrong one is ("file.toml:12: ...").
// Used by the scenario loader for [params], [sweep], [[case]], [network] and the --set overrides.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "models/common/status.h"
#include "sim/study/params.h"
#include "sim/study/study.h"

namespace perflab {

// A TOML value and where it came from, for error messages: "file.toml:12" or "--set params.x=3".
struct Located {
  const toml::node* node = nullptr;
  std::string where;
  std::filesystem::path base_dir;  // relative paths inside the value resolve against this
};

std::string where_of(const std::filesystem::path& file, const toml::node& node);
Status error_at(const std::string& where, const std::string& message);
// Entries of a TOML table in the order they appear in the file (toml++ sorts them by key).
std::vector<std::pair<std::string, const toml::node*>> in_file_order(const toml::table& table);
std::string toml_type_name(const toml::node& node);  // "a string", "an integer", ...
Status wrong_type(const Located& at, const std::string& key, const std::string& expected);

// "unknown parameter "x" for study "s", expected one of: ..." at `where`.
Status unknown_param(const std::string& where, const std::string& key, const Study& study);

// Converts one TOML value to a value of the type the parameter's spec declares, checking units, ranges,
// choices and that files exist.
Result<ParamValue> to_param_value(const ParamSpec& spec, const Located& at);

}  // namespace perflab
