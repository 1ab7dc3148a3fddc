// The run table: results of one scenario run, looked up by grid point.
#include "sim/runner/run_table.h"

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
  return table;
}

namespace {

bool before(const RunRow& a, const RunRow& b) {
  return a.point != b.point ? a.point < b.point : a.replication < b.replication;
}

}  // namespace

bool RunTable::place(RunRow row) {
  if (row.replication < 0 || row.replication >= scenario->seeds || row.point >= scenario->grid.size())
    return false;
  if (rows.empty() || before(rows.back(), row)) {  // the usual case: rows arrive in order
    rows.push_back(std::move(row));
    return true;
  }
  auto it = std::lower_bound(rows.begin(), rows.end(), row, before);
  if (it != rows.end() && !before(row, *it)) {
    *it = std::move(row);
  } else {
    rows.insert(it, std::move(row));
  }
  return true;
}

void RunTable::sort() {
  std::stable_sort(rows.begin(), rows.end(), before);
}

size_t RunTable::ran() const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const RunRow& r) { return r.ran(); }));
}

size_t RunTable::failed() const {
  return static_cast<size_t>(
      std::count_if(rows.begin(), rows.end(), [](const RunRow& r) { return r.failed(); }));
}

std::vector<size_t> RunTable::points() const {
  std::vector<size_t> points;
  for (const auto& row : rows) {
    if (row.ran() && (points.empty() || points.back() != row.point)) points.push_back(row.point);
  }
  return points;
}

std::pair<std::vector<RunRow>::const_iterator, std::vector<RunRow>::const_iterator> RunTable::rows_of(
    size_t point) const {
  auto first = std::partition_point(rows.begin(), rows.end(), [&](const RunRow& r) { return r.point < point; });
  auto last = std::partition_point(first, rows.end(), [&](const RunRow& r) { return r.point == point; });
  return {first, last};
}

std::vector<double> RunTable::values(size_t point, const std::string& metric) const {
  std::vector<double> out;
  auto [first, last] = rows_of(point);
  for (auto row = first; row != last; ++row) {
    if (!row->ok()) continue;
    auto it = row->metrics.find(metric);
    if (it != row->metrics.end()) out.push_back(it->second);
  }
  return out;
}

std::string RunTable::column_label(size_t point, const std::string& column) const {
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
