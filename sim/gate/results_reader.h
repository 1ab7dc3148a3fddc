// Reading a run back from its CSV (<name>.csv, as sim/runner/run_outputs.cpp writes it: parameter columns, seed, metric
// columns, error), in two shapes:
//   - read_result_rows: the rows as the file holds them, keyed by (parameter values, seed), needing no
//     scenario: what `perflab check` and `perflab compare` pair seed by seed, even when the grid changed;
//   - read_results: a RunTable laid over a loaded scenario's grid, for what reads a table by grid point
//     (a study's claims, its headline report). Rows of points the scenario does not have (a quick variant
//     runs a subset) are skipped. A micro run's timed repetitions come from <name>.repetitions.csv beside
//     the CSV when there is one.
// A missing file, a header that lacks a column, or a value that is not a number is an error naming the
// file and line.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/runner/run_table.h"

namespace perflab {

// One run's row: its grid point as parameter values (the CSV's text: the key) and labels (how a person
// reads them: the scenario's spelling for a fresh run, the CSV text for a file), seed, outcome, metrics.
struct ResultRow {
  std::vector<std::string> point;
  std::vector<std::string> labels;
  uint64_t seed = 0;
  std::string error;  // empty when the run succeeded
  Metrics metrics;    // only when it succeeded
  bool ok() const { return error.empty(); }
};

struct ResultRows {
  std::string origin;  // the CSV file, or the scenario of a fresh run
  std::vector<std::string> param_columns;
  std::vector<std::string> metric_columns;
  std::vector<ResultRow> rows;
};

Result<ResultRows> read_result_rows(const std::filesystem::path& csv);
// A finished run in the same shape (the rows that ran).
ResultRows result_rows(const RunTable& table);

Result<RunTable> read_results(const Scenario& scenario, const std::filesystem::path& csv);

// The fields of one CSV line (RFC 4180 quoting, as csv_field writes it).
std::vector<std::string> split_csv_line(const std::string& line);

// Any CSV file with a header (a quoted field may hold a line break) as one column -> text map per row; a
// row not as wide as the header is an error naming the file and line.
using CsvMap = std::map<std::string, std::string>;
Result<std::vector<CsvMap>> read_csv_maps(const std::filesystem::path& csv);

}  // namespace perflab
