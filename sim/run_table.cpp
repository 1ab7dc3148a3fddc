// The run table: results of one scenario run, looked up by grid point.
#include "sim/run_table.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace perflab {

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNotRun:
      return "not run";
    case Outcome::kOk:
      return "ok";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kTimedOut:
      return "timed out";
  }
  return "?";
}

RunTable RunTable::empty(const Scenario& scenario) {
  RunTable table;
  table.scenario = &scenario;
  for (size_t p = 0; p < scenario.grid.size(); ++p) {
    for (int r = 0; r < scenario.seeds; ++r) {
      RunRow row;
      row.point = p;
      row.replication = r;
      row.seed = seed_of(scenario, r);
      table.rows.push_back(row);
    }
  }
  return table;
}

bool RunTable::place(RunRow row) {
  if (row.replication < 0 || row.replication >= scenario->seeds) return false;
  size_t task = task_of(row.point, row.replication);
  if (task >= rows.size()) return false;
  rows[task] = std::move(row);
  return true;
}

std::vector<double> RunTable::values(size_t point, const std::string& metric) const {
  std::vector<double> out;
  for (const auto& row : rows) {
    if (row.point != point || !row.ok()) continue;
    auto it = row.metrics.find(metric);
    if (it != row.metrics.end()) out.push_back(it->second);
  }
  return out;
}

const std::string& RunTable::column_label(size_t point, const std::string& column) const {
  const auto& columns = scenario->param_columns;
  auto it = std::find(columns.begin(), columns.end(), column);
  if (it == columns.end()) {
    std::fprintf(stderr, "perflab: internal error: no column \"%s\"\n", column.c_str());
    std::abort();
  }
  return scenario->grid[point].column_labels[static_cast<size_t>(it - columns.begin())];
}

std::vector<size_t> RunTable::points_where(const std::string& column, const std::string& label) const {
  std::vector<size_t> points;
  for (size_t p = 0; p < scenario->grid.size(); ++p) {
    if (column_label(p, column) == label) points.push_back(p);
  }
  return points;
}

}  // namespace perflab
