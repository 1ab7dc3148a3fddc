// What a run writes: <name>.csv (one row per grid point × seed), <name>.summary.csv (per point: mean, 95%
// Student-t interval, min, max of each metric), <name>.md (a table a person can read), and for the micro
// engine <name>.repetitions.csv (every timed repetition). The same summary prints as md, csv or json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/runner/run_table.h"

namespace perflab {

std::string rows_csv(const RunTable& table);
std::string repetitions_csv(const RunTable& table);
std::string summary_csv(const RunTable& table);
std::string summary_json(const RunTable& table);
std::string summary_markdown(const RunTable& table);

// A results CSV's header split into the grid's parameter columns and the metrics, by the layouts above:
// <name>.csv is PARAMETERS…, seed, METRICS…, error (error may be missing); <name>.summary.csv is PARAMETERS…,
// runs, failed, then METRIC_mean, _ci95_low, _ci95_high, _min, _max for each metric. The one place that tells
// the two apart (the results reader, and Python's perflab and results site through the bindings); an error
// naming the expected layouts for any other header.
struct ResultColumns {
  bool summary = false;  // the header of a <name>.summary.csv
  std::vector<std::string> params;
  std::vector<std::string> metrics;
};
Result<ResultColumns> result_columns(const std::vector<std::string>& header);

// The point's parameters that vary across the grid, "strategy=scan, n=64000" ("point 3" if none vary).
std::string point_label(const Scenario& scenario, size_t point);

// Writes `text` to `file`; the error names the file.
Status write_file(const std::filesystem::path& file, const std::string& text);
// Creates the folder `out` and proves it writable (a command checks this before its first run).
Status writable_folder(const std::string& out);

// Writes every output file of the run into `dir` (created if needed).
Status write_outputs(const RunTable& table, const std::filesystem::path& dir);
// The files a run of `scenario` with --out `dir` writes (write_outputs', the .meta and the journal).
std::vector<std::filesystem::path> output_files(const Scenario& scenario, const std::filesystem::path& dir);
// Refuses, before anything runs, an output file that is a folder or cannot be replaced.
Status check_output_files(const Scenario& scenario, const std::filesystem::path& dir);

}  // namespace perflab
