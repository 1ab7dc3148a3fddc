// A scenario file's [validate] table, checked key by key into a ValidateSpec (validate_spec.h): what
// `perflab validate` compares and the criteria it judges by. Each error names the file and line.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include <toml++/toml.h>

#include "models/common/status.h"
#include "sim/scenario/toml_values.h"
#include "sim/scenario/validate_spec.h"
#include "sim/study/study.h"

namespace perflab {

// `locate` says where a value came from ("validate.latencies" → file:line, or --set).
Result<ValidateSpec> parse_validate_table(
    const toml::node& table, const std::filesystem::path& file, const Study& study, Engine engine,
    const std::function<Located(const std::string& dotted, const toml::node& value)>& locate);

}  // namespace perflab
