// Text forms shared by the scenario loader and the output writers: lists in messages, CSV fields and lines.
// Numbers (format_number) and quantities (format_quantity) are written by sim/sampling/units.h.
#pragma once

#include <string>
#include <vector>

#include "sim/sampling/units.h"

namespace perflab {

// "a, b, c" (or with another separator): how error messages list what was expected.
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");
// A long list summarised: the first `shown` items, then "… and N more" ("a; b; c and 42 more").
std::string join_first(const std::vector<std::string>& items, size_t shown,
                       const std::string& separator = "; ");

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text);
// One CSV line of `fields`, each as csv_field writes it, ending in "\n": every CSV perflab writes is made of
// these.
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace perflab
