// Reading a run back from its CSV (<name>.csv, as outputs.cpp writes it): the committed results under
// results/<study>/ become a RunTable laid over a loaded scenario's grid, so `perflab check` can compare a
// fresh run with them point by point and seed by seed. Rows of points the scenario does not have (a
// quick variant runs a subset) are skipped; a missing file, a header that lacks a parameter or metric
// column, or a value that is not a number is an error naming the file and line.
#pragma once

#include <filesystem>

#include "models/common/status.h"
#include "sim/run_table.h"

namespace perflab {

Result<RunTable> read_results(const Scenario& scenario, const std::filesystem::path& csv);

// The fields of one CSV line (RFC 4180 quoting, as csv_field writes it).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace perflab
