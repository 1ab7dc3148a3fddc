// How perflab writes JSON (run --format json, compare --format json, --timeline): documents built as
// nlohmann::ordered_json, so escaping and numbers are the library's, never hand-made. Keys stay in the order
// written; NaN and infinities become null; text that is not UTF-8 is written with U+FFFD, not refused.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace perflab {

using Json = nlohmann::ordered_json;

// `doc` as text: indented by `indent` spaces a level, or on one line when `indent` is negative.
std::string json_text(const Json& doc, int indent = 2);

}  // namespace perflab
