// The committed headline reports are what the studies' reports make of the committed CSVs, byte for byte:
// for every results/<study>/<name>.report.md, scenario <name> is loaded from scenarios/<study>/, its
// RunTable read back from <name>.csv (and <name>.repetitions.csv) and its study's headline_report compared
// with the file. A report's wording or number format cannot change without its committed file changing too.
// A report whose CSV lacks grid points of its scenario predates the scenario and the report code as they
// are now: it fails, saying so (a skip would pass unseen, and the report would go unchecked).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/results_reader.h"
#include "sim/scenario.h"

namespace perflab {
namespace {
namespace fs = std::filesystem;

struct CommittedReport {
  std::string study;
  std::string scenario;
  fs::path file;
};
void PrintTo(const CommittedReport& report, std::ostream* out) {
  *out << report.file.string();
}

std::vector<CommittedReport> committed_reports() {
  const std::string suffix = ".report.md";
  std::vector<CommittedReport> reports;
  for (const auto& study_dir : fs::directory_iterator(PERFLAB_RESULTS_DIR)) {
    if (!study_dir.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(study_dir.path())) {
      std::string name = entry.path().filename().string();
      if (name.size() <= suffix.size() ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      reports.push_back(
          {study_dir.path().filename().string(), name.substr(0, name.size() - suffix.size()), entry.path()});
    }
  }
  std::sort(reports.begin(), reports.end(),
            [](const CommittedReport& a, const CommittedReport& b) { return a.file < b.file; });
  return reports;
}

std::string file_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The shipped scenario of `study` whose name is `name`.
Result<Scenario> scenario_named(const std::string& study, const std::string& name) {
  for (const auto& entry : fs::directory_iterator(scenarios_dir() / study)) {
    if (entry.path().extension() != ".toml") continue;
    auto scenario = load_scenario(entry.path(), {});
    if (scenario.ok() && scenario->name == name) return scenario;
  }
  return Status::Error("no scenario named " + name + " in " + (scenarios_dir() / study).string());
}

// How many grid points of `scenario` have no row in `csv`. A parameter the file lacks but the grid holds at
// one value (a knob added at its default since the file was written) is read as that value, as check does.
Result<size_t> points_not_in(const fs::path& csv, const Scenario& scenario) {
  auto file = read_result_rows(csv);
  if (!file.ok()) return file.status();
  const std::vector<size_t> varying = scenario.grid.varying_columns();
  std::vector<size_t> scenario_column, file_column;
  for (size_t c = 0; c < scenario.param_columns.size(); ++c) {
    const std::string& name = scenario.param_columns[c];
    auto it = std::find(file->param_columns.begin(), file->param_columns.end(), name);
    if (it != file->param_columns.end()) {
      scenario_column.push_back(c);
      file_column.push_back(static_cast<size_t>(it - file->param_columns.begin()));
    } else if (std::find(varying.begin(), varying.end(), c) != varying.end()) {
      return Status::Error(csv.string() + ": no column " + name);
    }
  }
  std::set<std::vector<std::string>> ran;
  for (const auto& row : file->rows) {
    std::vector<std::string> values;
    for (size_t c : file_column) values.push_back(row.point[c]);
    ran.insert(values);
  }
  size_t absent = 0;
  for (size_t p = 0; p < scenario.grid.size(); ++p) {
    const GridPoint point = scenario.grid[p];
    std::vector<std::string> values;
    for (size_t c : scenario_column) values.push_back(point.column_values[c]);
    absent += ran.count(values) == 0;
  }
  return absent;
}

class CommittedReportTest : public ::testing::TestWithParam<CommittedReport> {};

TEST_P(CommittedReportTest, IsTheHeadlineReportOfTheCommittedCsv) {
  const CommittedReport& report = GetParam();
  auto scenario = scenario_named(report.study, report.scenario);
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  EXPECT_TRUE(scenario->headline) << report.scenario
                                  << " is no headline scenario, yet has a committed report";
  ASSERT_TRUE(scenario->study->headline_report) << report.study << " has no headline report";
  const fs::path csv = report.file.parent_path() / (report.scenario + ".csv");
  auto missing = points_not_in(csv, *scenario);
  ASSERT_TRUE(missing.ok()) << missing.status().message();
  if (*missing > 0) {
    FAIL() << *missing << " grid points of " << report.scenario << " are not in " << csv.string()
           << ": its results were made before the scenario (and maybe its report) changed, so the report "
              "cannot be checked; `perflab reproduce` makes them again";
  }
  auto table = read_results(*scenario, csv);
  ASSERT_TRUE(table.ok()) << table.status().message();
  EXPECT_EQ(scenario->study->headline_report(*table), file_text(report.file)) << report.file.string();
}

INSTANTIATE_TEST_SUITE_P(Results, CommittedReportTest, ::testing::ValuesIn(committed_reports()),
                         [](const ::testing::TestParamInfo<CommittedReport>& info) {
                           std::string name = info.param.scenario;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace perflab
