// Reads the sample file of an empirical(file.csv) distribution: a header row (any name) and one value
// per line, with or without units ("0.02", "20ms"); a plain number is in base units (seconds, bytes).
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
