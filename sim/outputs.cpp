#include "sim/outputs.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "sim/markdown.h"
#include "sim/stats/stats.h"
#include "sim/value_format.h"

namespace perflab {
namespace {

std::string join_csv(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line + "\n";
}

std::vector<std::string> metric_names(const RunTable& table) {
  std::vector<std::string> names;
  for (const auto& m : table.scenario->study->metrics_for(table.scenario->engine)) names.push_back(m.name);
  return names;
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
  std::string out = join_csv(header);
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
    out += join_csv(fields);
  }
  return out;
}

std::string repetitions_csv(const RunTable& table) {
  std::vector<std::string> header = table.scenario->param_columns;
  for (const char* column : {"seed", "repetition", "seconds"}) header.emplace_back(column);
  std::string out = join_csv(header);
  for (const auto& row : table.rows) {
    for (size_t r = 0; r < row.repetitions.size(); ++r) {
      std::vector<std::string> fields = table.scenario->grid[row.point].column_values;
      fields.push_back(std::to_string(row.seed));
      fields.push_back(std::to_string(r));
      fields.push_back(format_number(row.repetitions[r]));
      out += join_csv(fields);
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
    for (const char* stat : {"_mean", "_ci95_low", "_ci95_high", "_min", "_max"}) header.push_back(m + stat);
  }
  std::string out = join_csv(header);
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
    out += join_csv(fields);
  }
  return out;
}

std::string summary_json(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  auto quote = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  };
  auto number = [](double v) { return std::isfinite(v) ? format_number(v) : std::string("null"); };
  std::string out = "{\"scenario\": " + quote(scenario.name) + ", \"study\": " + quote(scenario.study->name) +
                    ", \"points\": [\n";
  bool first_point = true;
  for (size_t p : table.points()) {
    out += first_point ? "  {" : ",\n  {";
    first_point = false;
    out += "\"params\": {";
    const auto values = scenario.grid[p].column_values;
    for (size_t c = 0; c < scenario.param_columns.size(); ++c) {
      out += (c ? ", " : "") + quote(scenario.param_columns[c]) + ": " + quote(values[c]);
    }
    out += "}, \"failed\": " + std::to_string(failed_runs(table, p)) + ", \"metrics\": {";
    bool first = true;
    for (const auto& m : metric_names(table)) {
      auto values = table.values(p, m);
      if (values.empty()) continue;
      auto s = stats::summarize(values);
      out += (first ? "" : ", ") + quote(m) + ": {\"n\": " + std::to_string(s.n) +
             ", \"mean\": " + number(s.mean) + ", \"ci95_low\": " + number(s.ci95_low) +
             ", \"ci95_high\": " + number(s.ci95_high) + ", \"min\": " + number(s.min) +
             ", \"max\": " + number(s.max) + "}";
      first = false;
    }
    out += "}}";
  }
  return out + "\n]}\n";
}

std::string summary_markdown(const RunTable& table) {
  const Scenario& scenario = *table.scenario;
  auto shown = scenario.grid.varying_columns();
  std::string out =
      "### " + scenario.name + " (" + scenario.study->name + ", " + engine_name(scenario.engine) + " engine";
  out += scenario.engine != Engine::kMicro
             ? ", " + std::to_string(scenario.seeds) + " seeds)\n\n"
             : ", median of " + std::to_string(scenario.repetitions) + " repetitions)\n\n";
  if (!scenario.description.empty()) out += scenario.description + "\n\n";
  std::string fixed;
  const GridPoint first = scenario.grid.empty() ? GridPoint{} : scenario.grid[0];
  for (size_t c = 0; c < scenario.param_columns.size(); ++c) {
    if (std::find(shown.begin(), shown.end(), c) != shown.end() || scenario.grid.empty()) continue;
    fixed += (fixed.empty() ? "" : ", ") + scenario.param_columns[c] + " = " + first.column_labels[c];
  }
  if (!fixed.empty()) out += "Fixed: " + fixed + ".\n\n";
  if (scenario.seeds > 1) out += "Values are mean ± half-width of the 95% Student-t interval over seeds.\n\n";
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
  for (size_t c : scenario.grid.varying_columns()) parts.push_back(scenario.param_columns[c] + "=" + labels[c]);
  return parts.empty() ? "point " + std::to_string(point) : join(parts);
}

Status write_outputs(const RunTable& table, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error(dir.string() + ": cannot create the output folder: " + ec.message());
  const std::string stem = (dir / table.scenario->name).string();
  for (auto [file, text] :
       {std::pair{stem + ".csv", rows_csv(table)}, std::pair{stem + ".summary.csv", summary_csv(table)},
        std::pair{stem + ".md", summary_markdown(table)}}) {
    auto s = write_file(file, text);
    if (!s.ok()) return s;
  }
  if (table.scenario->engine == Engine::kMicro)
    return write_file(stem + ".repetitions.csv", repetitions_csv(table));
  return Status::OK();
}

}  // namespace perflab
