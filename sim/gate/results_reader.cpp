// See results_reader.h.
#include "sim/gate/results_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>

#include "models/common/utf8_bom.h"
#include "sim/runner/run_outputs.h"

namespace perflab {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

namespace {

// Logical CSV records: a quoted field may hold a line break (an error message), so records are joined
// until their quotes balance. Each comes with the line it starts on.
std::vector<std::pair<int, std::string>> read_records(std::ifstream& in) {
  std::vector<std::pair<int, std::string>> records;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    if (++number == 1) line = std::string(without_utf8_bom(line));
    if (!records.empty()) {
      size_t quotes = 0;
      for (char c : records.back().second) quotes += c == '"';
      if (quotes % 2 == 1) {
        records.back().second += "\n" + line;
        continue;
      }
    }
    records.emplace_back(number, line);
  }
  return records;
}

Result<double> parse_metric(const std::string& where, const std::string& name, const std::string& text) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    return Status::Error(where + name + " = \"" + text + "\" is not a number");
  return value;
}

// A record's fields, or why it is not a row of a file whose header has `width` columns.
Result<std::vector<std::string>> record_fields(const std::string& where, const std::string& text,
                                               size_t width) {
  auto fields = split_csv_line(text);
  if (fields.size() != width) {
    return Status::Error(where + std::to_string(fields.size()) + " fields, expected " +
                         std::to_string(width) + " as in the header");
  }
  return fields;
}

// A parameter the file lacks that is at one value in every point of the scenario's grid (a knob added since
// the file was written, at its default): its rows are read as having that value (sim/gate/check.h).
constexpr size_t kAtTheGridsValue = SIZE_MAX;

// Where each of the scenario's parameters stands among a file's parameter columns (kAtTheGridsValue for one
// it lacks at one value), up to the first the file lacks otherwise.
std::vector<size_t> scenario_columns(const Scenario& scenario, const std::vector<std::string>& file_columns) {
  std::vector<size_t> index;
  const std::vector<size_t> varying = scenario.grid.varying_columns();
  const auto one_value_in_grid = [&varying](size_t c) {
    return std::find(varying.begin(), varying.end(), c) == varying.end();
  };
  for (size_t c = 0; c < scenario.param_columns.size(); ++c) {
    auto it = std::find(file_columns.begin(), file_columns.end(), scenario.param_columns[c]);
    if (it != file_columns.end()) {
      index.push_back(static_cast<size_t>(it - file_columns.begin()));
    } else if (!scenario.grid.empty() && one_value_in_grid(c)) {
      index.push_back(kAtTheGridsValue);
    } else {
      break;
    }
  }
  return index;
}

// The column values of the grid's first point: what a column the file lacks holds (kAtTheGridsValue).
std::vector<std::string> first_point_values(const Scenario& scenario) {
  return scenario.grid.empty() ? std::vector<std::string>{} : scenario.grid[0].column_values;
}

// A file row's point in the scenario's column order.
std::vector<std::string> point_values(const std::vector<std::string>& first_point,
                                      const std::vector<size_t>& index,
                                      const std::vector<std::string>& fields) {
  std::vector<std::string> values;
  for (size_t c = 0; c < index.size(); ++c)
    values.push_back(index[c] == kAtTheGridsValue ? first_point[c] : fields[index[c]]);
  return values;
}

// The timed repetitions of a micro run (<name>.repetitions.csv beside its CSV: PARAMETERS…, seed,
// repetition, seconds) onto the rows of `table` they belong to; rows of points it lacks are skipped.
Status read_repetitions(const std::filesystem::path& file,
                        const std::map<std::vector<std::string>, size_t>& point_of, RunTable& table) {
  std::ifstream in(file);
  if (!in) return Status::Error(file.string() + ": cannot read");
  auto records = read_records(in);
  if (records.empty()) return Status::Error(file.string() + ":1: empty file, expected a header row");
  auto header = split_csv_line(records.front().second);
  const size_t params = header.size() >= 3 ? header.size() - 3 : 0;
  if (header.size() < 3 || header[params] != "seed" || header[params + 1] != "repetition" ||
      header[params + 2] != "seconds") {
    return Status::Error(file.string() + ":1: expected the columns PARAMETERS…, seed, repetition, seconds");
  }
  auto param_index = scenario_columns(*table.scenario, {header.begin(), header.begin() + params});
  std::map<std::pair<size_t, uint64_t>, RunRow*> row_of;  // (point, seed)
  for (auto& row : table.rows) row_of[{row.point, row.seed}] = &row;
  const std::vector<std::string> first_point = first_point_values(*table.scenario);
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& [line, text] = records[r];
    if (text.empty()) continue;
    const std::string where = file.string() + ":" + std::to_string(line) + ": ";
    auto split = record_fields(where, text, header.size());
    if (!split.ok()) return split.status();
    const std::vector<std::string>& fields = *split;
    auto point = point_of.find(point_values(first_point, param_index, fields));
    if (point == point_of.end()) continue;
    auto row = row_of.find({point->second, std::strtoull(fields[params].c_str(), nullptr, 10)});
    if (row == row_of.end()) continue;
    auto repetition = parse_metric(where, "repetition", fields[params + 1]);
    if (!repetition.ok()) return repetition.status();
    auto seconds = parse_metric(where, "seconds", fields[params + 2]);
    if (!seconds.ok()) return seconds.status();
    auto& repetitions = row->second->repetitions;
    auto at = static_cast<size_t>(*repetition);
    if (repetitions.size() <= at) repetitions.resize(at + 1);
    repetitions[at] = *seconds;
  }
  return Status::OK();
}

}  // namespace

Result<ResultRows> read_result_rows(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  if (!in)
    return Status::Error(csv.string() +
                         ": cannot read, expected the <name>.csv that `perflab run --out` writes");
  auto records = read_records(in);
  if (records.empty()) return Status::Error(csv.string() + ":1: empty file, expected a header row");
  auto header = split_csv_line(records.front().second);
  auto columns = result_columns(header);
  if (!columns.ok() || columns->summary || header.back() != "error") {
    return Status::Error(
        csv.string() +
        ":1: not a perflab results file, expected the columns PARAMETERS…, seed, METRICS…, error");
  }
  ResultRows result;
  result.origin = csv.string();
  result.param_columns = std::move(columns->params);
  result.metric_columns = std::move(columns->metrics);
  const size_t seed_index = result.param_columns.size();
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& [line, text] = records[r];
    if (text.empty()) continue;
    const std::string where = csv.string() + ":" + std::to_string(line) + ": ";
    auto split = record_fields(where, text, header.size());
    if (!split.ok()) return split.status();
    const std::vector<std::string>& fields = *split;
    ResultRow row;
    row.point.assign(fields.begin(), fields.begin() + static_cast<long>(seed_index));
    row.labels = row.point;
    char* end = nullptr;
    const std::string& seed_text = fields[seed_index];
    row.seed = std::strtoull(seed_text.c_str(), &end, 10);
    if (seed_text.empty() || *end != '\0')
      return Status::Error(where + "seed \"" + seed_text + "\" is not an integer");
    row.error = fields.back();
    if (row.ok()) {
      for (size_t m = 0; m < result.metric_columns.size(); ++m) {
        auto value = parse_metric(where, result.metric_columns[m], fields[seed_index + 1 + m]);
        if (!value.ok()) return value.status();
        row.metrics[result.metric_columns[m]] = *value;
      }
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

ResultRows result_rows(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  ResultRows result;
  result.origin = scenario.name;
  result.param_columns = scenario.param_columns;
  for (const auto& m : scenario.study->metrics_for(scenario.engine)) result.metric_columns.push_back(m.name);
  for (const auto& run : table.rows) {
    if (!run.ran()) continue;
    ResultRow row;
    row.point = scenario.grid[run.point].column_values;
    row.labels = scenario.grid[run.point].column_labels;
    row.seed = run.seed;
    row.error = run.ok() ? "" : (run.error.empty() ? std::string(outcome_name(run.outcome)) : run.error);
    row.metrics = run.metrics;
    result.rows.push_back(std::move(row));
  }
  return result;
}

Result<RunTable> read_results(const Scenario& scenario, const std::filesystem::path& csv) {
  if (!std::filesystem::exists(csv)) {
    return Status::Error(csv.string() + ": no committed results, expected the CSV that `perflab reproduce` " +
                         "writes (run `perflab check --update` to create it)");
  }
  auto file = read_result_rows(csv);
  if (!file.ok()) return file.status();
  // Where each of the scenario's parameters stands among the file's, and that its metrics are there.
  std::vector<size_t> param_index = scenario_columns(scenario, file->param_columns);
  std::vector<std::string> missing;
  if (param_index.size() < scenario.param_columns.size())
    missing.push_back(scenario.param_columns[param_index.size()]);
  for (const auto& m : scenario.study->metrics_for(scenario.engine)) {
    if (std::find(file->metric_columns.begin(), file->metric_columns.end(), m.name) ==
        file->metric_columns.end())
      missing.push_back(m.name);
  }
  if (!missing.empty()) {
    return Status::Error(csv.string() + ":1: no column \"" + missing.front() +
                         "\", expected the columns of scenario " + scenario.name + " as it is now");
  }
  std::map<std::vector<std::string>, size_t> point_of;
  for (size_t p = 0; p < scenario.grid.size(); ++p) point_of[scenario.grid[p].column_values] = p;

  RunTable table;
  table.scenario = &scenario;
  const std::vector<std::string> first_point = first_point_values(scenario);
  for (auto& read : file->rows) {
    auto point = point_of.find(point_values(first_point, param_index, read.point));
    if (point == point_of.end()) continue;
    RunRow row;
    row.point = point->second;
    row.seed = read.seed;
    row.replication = static_cast<int>(read.seed - scenario.seed);
    row.error = read.error;
    row.outcome = row.error.empty()                      ? Outcome::kOk
                  : row.error.rfind("timed out", 0) == 0 ? Outcome::kTimedOut
                                                         : Outcome::kFailed;
    row.metrics = std::move(read.metrics);
    table.rows.push_back(std::move(row));
  }
  table.sort();
  auto repetitions = std::filesystem::path(csv).replace_extension(".repetitions.csv");
  if (std::filesystem::exists(repetitions)) {
    Status read = read_repetitions(repetitions, point_of, table);
    if (!read.ok()) return read;
  }
  return table;
}

Result<std::vector<CsvMap>> read_csv_maps(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  if (!in) return Status::Error(csv.string() + ": cannot read");
  auto records = read_records(in);
  if (records.empty()) return Status::Error(csv.string() + ":1: empty, expected a header");
  const auto header = split_csv_line(records.front().second);
  std::vector<CsvMap> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& [line, text] = records[r];
    if (text.empty()) continue;
    auto fields = record_fields(csv.string() + ":" + std::to_string(line) + ": ", text, header.size());
    if (!fields.ok()) return fields.status();
    CsvMap row;
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = (*fields)[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace perflab
