// Reads the sample file of an empirical(file.csv) distribution: one value per line, with or without units
// ("0.02", "20ms"; a plain number is in base units, seconds or bytes), under an optional header row (any
// name that does not start as a number does). A UTF-8 byte-order mark is ignored.
#pragma once

#include <filesystem>
#include <vector>

#include "models/common/status.h"
#include "sim/sampling/units.h"

namespace perflab {

// Blank lines are skipped. Errors read "FILE:LINE: what is wrong, what was expected" (missing file,
// empty file, no values, more than one column, a bad or negative value).
Result<std::vector<double>> read_empirical_values(const std::filesystem::path& file, Quantity quantity);

}  // namespace perflab
