#include "sim/runner/run_outputs.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include "sim/engines/micro_engine.h"
#include "sim/stats/stats.h"
#include "sim/study/params.h"
#include "sim/text/json_text.h"
#include "sim/text/markdown.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace {

std::vector<std::string> metric_names(const RunTable& table) {
  std::vector<std::string> names;
  for (const auto& m : table.scenario->study->metrics_for(table.scenario->engine)) names.push_back(m.name);
  return names;
}

// A parameter column's cell as JSON of its type: integers, reals and booleans as such (reals in base units,
// as the CSV has them), and the rest (choices, paths, distributions, case names) as text.
Json typed_cell(const Study& study, const std::string& column, const std::string& text) {
  if (column == kCaseKey) return text;
  if (const ParamSpec* spec = study.find_param(column)) {
    if (spec->type == ParamType::kBool) return text == "true";
    if (spec->type == ParamType::kInt) return std::stoll(text);
    if (spec->type != ParamType::kReal && spec->type != ParamType::kDuration &&
        spec->type != ParamType::kSize && spec->type != ParamType::kRate)
      return text;
  }
  char* end = nullptr;  // a real parameter, or a network column (bandwidth: a number, latency: text)
  const double number = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && std::isfinite(number) ? Json(number) : Json(text);
}

// The parameters the study leaves unused at every point of the table that ran (Study::unused).
std::set<std::string> unused_everywhere(const RunTable& table) {
  const Study& study = *table.scenario->study;
  const std::vector<size_t> points = table.points();
  if (!study.unused || points.empty()) return {};
  const std::vector<std::string> first = study.unused(table.params(points.front()));
  std::set<std::string> unused(first.begin(), first.end());
  for (size_t i = 1; i < points.size() && !unused.empty(); ++i) {
    const std::vector<std::string> here = study.unused(table.params(points[i]));
    std::set<std::string> both;
    for (const auto& name : here)
      if (unused.count(name) > 0) both.insert(name);
    unused = std::move(both);
  }
  return unused;
}

// The statistics of each metric in <name>.summary.csv, as column suffixes.
constexpr std::array<const char*, 5> kSummaryStats = {"_mean", "_ci95_low", "_ci95_high", "_min", "_max"};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

size_t failed_runs(const RunTable& table, size_t point) {
  auto [first, last] = table.rows_of(point);
  return static_cast<size_t>(std::count_if(first, last, [](const RunRow& row) { return row.failed(); }));
}

std::string first_error(const RunTable& table, size_t point) {
  auto [first, last] = table.rows_of(point);
  auto failed = std::find_if(first, last, [](const RunRow& row) { return row.failed(); });
  return failed == last ? "" : failed->error;
}

// "5 repetitions", or "5 repetitions, 3 for a point whose run takes over 1 s".
std::string repetitions_text(const Scenario& scenario) {
  std::string text = std::to_string(scenario.repetitions) + " repetitions";
  if (scenario.long_repetitions == scenario.repetitions) return text;
  return text + ", " + std::to_string(scenario.long_repetitions) + " for a point whose run takes over " +
         format_quantity(kLongestWarmUpSeconds, Quantity::kDuration);
}

}  // namespace

Status write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
  return out ? Status::OK() : Status::Error(file.string() + ": cannot write");
}

std::string rows_csv(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  std::vector<std::string> header = scenario.param_columns;
  header.emplace_back("seed");
  for (const auto& m : metric_names(table)) header.push_back(m);
  header.emplace_back("error");
  std::string out = csv_line(header);
  const auto names = metric_names(table);
  for (const auto& row : table.rows) {
    if (!row.ran()) continue;
    std::vector<std::string> fields = scenario.grid[row.point].column_values;
    fields.push_back(std::to_string(row.seed));
    for (const auto& m : names) {
      auto it = row.metrics.find(m);
      fields.push_back(it == row.metrics.end() ? "" : format_number(it->second));
    }
    fields.push_back(row.error);
    out += csv_line(fields);
  }
  return out;
}

std::string repetitions_csv(const RunTable& table) {
  std::vector<std::string> header = table.scenario->param_columns;
  for (const char* column : {"seed", "repetition", "seconds"}) header.emplace_back(column);
  std::string out = csv_line(header);
  for (const auto& row : table.rows) {
    for (size_t r = 0; r < row.repetitions.size(); ++r) {
      std::vector<std::string> fields = table.scenario->grid[row.point].column_values;
      fields.push_back(std::to_string(row.seed));
      fields.push_back(std::to_string(r));
      fields.push_back(format_number(row.repetitions[r]));
      out += csv_line(fields);
    }
  }
  return out;
}

std::string summary_csv(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  std::vector<std::string> header = scenario.param_columns;
  header.emplace_back("runs");
  header.emplace_back("failed");
  for (const auto& m : metric_names(table)) {
    for (const char* stat : kSummaryStats) header.push_back(m + stat);
  }
  std::string out = csv_line(header);
  const auto names = metric_names(table);
  for (size_t p : table.points()) {
    std::vector<std::string> fields = scenario.grid[p].column_values;
    fields.push_back(std::to_string(table.values(p, names.front()).size()));
    fields.push_back(std::to_string(failed_runs(table, p)));
    for (const auto& m : names) {
      auto values = table.values(p, m);
      if (values.empty()) {
        for (int i = 0; i < 5; ++i) fields.emplace_back("");
        continue;
      }
      auto s = stats::summarize(values);
      for (double v : {s.mean, s.ci95_low, s.ci95_high, s.min, s.max}) fields.push_back(format_number(v));
    }
    out += csv_line(fields);
  }
  return out;
}

std::string summary_json(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  Json points = Json::array();
  for (size_t p : table.points()) {
    Json params = Json::object();
    const auto values = scenario.grid[p].column_values;
    for (size_t c = 0; c < scenario.param_columns.size(); ++c)
      params[scenario.param_columns[c]] = typed_cell(*scenario.study, scenario.param_columns[c], values[c]);
    Json metrics = Json::object();
    for (const auto& m : metric_names(table)) {
      auto values = table.values(p, m);
      if (values.empty()) continue;
      auto s = stats::summarize(values);
      metrics[m] = {{"n", s.n},     {"mean", s.mean}, {"ci95_low", s.ci95_low}, {"ci95_high", s.ci95_high},
                    {"min", s.min}, {"max", s.max}};
    }
    points.push_back({{"params", params}, {"failed", failed_runs(table, p)}, {"metrics", metrics}});
  }
  return json_text({{"scenario", scenario.name}, {"study", scenario.study->name}, {"points", points}}) + "\n";
}

Result<ResultColumns> result_columns(const std::vector<std::string>& header) {
  ResultColumns columns;
  auto seed = std::find(header.begin(), header.end(), "seed");
  auto runs = std::find(header.begin(), header.end(), "runs");
  if (seed != header.end()) {
    columns.params.assign(header.begin(), seed);
    std::copy_if(seed + 1, header.end(), std::back_inserter(columns.metrics),
                 [](const std::string& column) { return column != "error"; });
    return columns;
  }
  if (runs != header.end() && std::next(runs) != header.end() && *std::next(runs) == "failed") {
    columns.summary = true;
    columns.params.assign(header.begin(), runs);
    const std::string mean = kSummaryStats.front();
    for (auto column = runs + 2; column != header.end(); ++column) {
      if (ends_with(*column, mean))
        columns.metrics.push_back(column->substr(0, column->size() - mean.size()));
    }
    return columns;
  }
  return Status::Error(
      "not a perflab results file, expected the columns PARAMETERS…, seed, METRICS…, error (<name>.csv) or "
      "PARAMETERS…, runs, failed, METRIC_mean, … (<name>.summary.csv)");
}

std::string summary_markdown(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  auto shown = scenario.grid.varying_columns();
  std::string out =
      "### " + scenario.name + " (" + scenario.study->name + ", " + engine_name(scenario.engine) + " engine";
  out += scenario.engine != Engine::kMicro ? ", " + std::to_string(scenario.seeds) + " seeds)\n\n"
                                           : ", median of " + repetitions_text(scenario) + ")\n\n";
  if (!scenario.description.empty()) out += scenario.description + "\n\n";
  std::vector<std::string> fixed, unset;
  const GridPoint first = scenario.grid.empty() ? GridPoint{} : scenario.grid[0];
  const std::set<std::string> unused = unused_everywhere(table);
  for (size_t c = 0; c < scenario.param_columns.size(); ++c) {
    if (std::find(shown.begin(), shown.end(), c) != shown.end() || scenario.grid.empty()) continue;
    if (unused.count(scenario.param_columns[c]) > 0) continue;
    if (is_unset_label(first.column_labels[c])) {
      unset.push_back(scenario.param_columns[c]);
    } else {
      fixed.push_back(scenario.param_columns[c] + " = " + first.column_labels[c]);
    }
  }
  if (!fixed.empty()) out += "Fixed: " + join(fixed) + ".";
  if (!unset.empty())
    out += std::string(fixed.empty() ? "" : " ") + "Left at their defaults: " + join(unset) + ".";
  if (!fixed.empty() || !unset.empty()) out += "\n\n";
  if (scenario.seeds > 1) out += "Values are mean [95% Student-t interval] over seeds.\n\n";
  std::vector<std::string> header;
  std::string alignments;
  for (size_t c : shown) {
    header.push_back(scenario.param_columns[c]);
    alignments += 'l';
  }
  for (const auto& m : metric_names(table)) {
    header.push_back(m);
    alignments += 'r';
  }
  MarkdownTable summary(header, alignments);
  for (size_t p : table.points()) {
    std::vector<std::string> cells;
    const auto labels = scenario.grid[p].column_labels;
    for (size_t c : shown) cells.push_back(labels[c]);
    for (const auto& m : metric_names(table)) {
      auto values = table.values(p, m);
      cells.push_back(values.empty() ? std::string("—") : mean_with_interval(stats::summarize(values)));
    }
    summary.add(cells);
  }
  out += summary.str();
  bool any_failed = false;
  for (size_t p : table.points()) {
    size_t failed = failed_runs(table, p);
    if (failed == 0) continue;
    if (!any_failed) out += "\nFailed runs:\n";
    any_failed = true;
    out += "- " + point_label(scenario, p) + ": " + std::to_string(failed) +
           " failed: " + first_error(table, p) + "\n";
  }
  if (table.interrupted) {
    out += "\n(Interrupted: " + std::to_string(table.ran()) + " of " + std::to_string(table.planned_runs()) +
           " runs; only finished runs are shown.)\n";
  }
  return out;
}

std::string point_label(const Scenario& scenario, size_t point) {
  std::vector<std::string> parts;
  const auto labels = scenario.grid[point].column_labels;
  for (size_t c : scenario.grid.varying_columns())
    parts.push_back(scenario.param_columns[c] + "=" + labels[c]);
  return parts.empty() ? "point " + std::to_string(point) : join(parts);
}

namespace {

// The tables write_outputs writes, in this order: every run, the summary, the report, and for the micro
// engine every timed repetition.
std::vector<std::filesystem::path> table_files(const Scenario& scenario, const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const char* suffix : {".csv", ".summary.csv", ".md"}) files.push_back(dir / (scenario.name + suffix));
  if (scenario.engine == Engine::kMicro) files.push_back(dir / (scenario.name + ".repetitions.csv"));
  return files;
}

}  // namespace

Status write_outputs(const RunTable& table, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error(dir.string() + ": cannot create the output folder: " + ec.message());
  const Scenario& scenario = *table.scenario;
  std::vector<std::string> texts = {rows_csv(table), summary_csv(table), summary_markdown(table)};
  if (scenario.engine == Engine::kMicro) texts.push_back(repetitions_csv(table));
  const std::vector<std::filesystem::path> files = table_files(scenario, dir);
  for (size_t i = 0; i < files.size(); ++i) {
    auto s = write_file(files[i], texts[i]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

std::vector<std::filesystem::path> output_files(const Scenario& scenario, const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files = table_files(scenario, dir);
  for (const char* suffix : {".meta", ".journal"}) files.push_back(dir / (scenario.name + suffix));
  return files;
}

Status check_output_files(const Scenario& scenario, const std::filesystem::path& dir) {
  for (const std::filesystem::path& file : output_files(scenario, dir)) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
      return Status::Error(file.string() + " is a folder, expected a file this run can write");
    if (std::filesystem::exists(file, ec) && access(file.c_str(), W_OK) != 0)
      return Status::Error(file.string() + " cannot be replaced: " + std::strerror(errno));
  }
  return Status::OK();
}

Status writable_folder(const std::string& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) return Status::Error(out + ": cannot create the output folder: " + ec.message());
  const std::filesystem::path probe = std::filesystem::path(out) / ".perflab-write-probe";
  if (auto written = write_file(probe, ""); !written.ok())
    return Status::Error(out + ": the output folder is not writable: " + written.message());
  std::filesystem::remove(probe, ec);
  return Status::OK();
}

}  // namespace perflab
