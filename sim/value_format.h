// Text forms shared by the scenario loader and the output writers: numbers as people read them, CSV fields.
#pragma once

#include <string>
#include <vector>

namespace perflab {

// Shortest text that reads back as the same double ("0.1", "250", "1e-09"); "nan"/"inf" spelled out.
std::string format_number(double value);

// "a, b, c" (or with another separator): how error messages list what was expected.
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");
// A long list summarised: the first `shown` items, then "… and N more" ("a; b; c and 42 more").
std::string join_first(const std::vector<std::string>& items, size_t shown, const std::string& separator = "; ");

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text);

}  // namespace perflab
