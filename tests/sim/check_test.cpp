// The regression gate: the paired rules on hand-made tables (an exact count moved by one, a simulated time
// moved by 0.1% on one seed, floating-point noise, a missing seed, a changed parameter, a claim below its
// bound, micro timings), `perflab compare` and `perflab check` end to end on the committed results of
// prefetch, share and pipe, as they are and perturbed, and the provenance every .meta records.
#include "sim/gate/check.h"

#include <gtest/gtest.h>
#include <unistd.h>  // environ

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "sim/gate/provenance.h"
#include "sim/gate/results_reader.h"
#include "sim/text/value_format.h"
#include "tests/sim/cli_runner.h"

namespace perflab {
namespace {
namespace fs = std::filesystem;
using testing::run_perflab;
using testing::TempDir;

// A two-point sim scenario of a study with one exact and one timed metric and one claim.
struct Fixture {
  Study study;
  Scenario scenario;
  Fixture() {
    study.name = "checked";
    study.metrics = {{"count", "a deterministic count", true}, {"time_s", "a simulated time"}};
    study.claims = [](const RunTable& table) {
      auto a = table.values(0, "time_s");
      auto b = table.values(1, "time_s");
      double ratio = a.empty() || b.empty() ? NAN : b[0] / a[0];
      return std::vector<Claim>{{"time at x=2 / x=1", ratio, 1.5, INFINITY}};
    };
    scenario.name = "checked-scenario";
    scenario.study = &study;
    scenario.seed = 1;
    scenario.seeds = 5;
    scenario.param_columns = {"x"};
    set_points({{"1"}, {"2"}});
  }
  // The grid as these points' column values (= labels).
  void set_points(const std::vector<std::vector<std::string>>& columns) {
    std::vector<GridPoint> points(columns.size());
    for (size_t p = 0; p < columns.size(); ++p)
      points[p].column_values = points[p].column_labels = columns[p];
    scenario.grid = Grid::of(points);
  }
  // Seeds 1..5 of both points: count = 10·x, time = x + small seed noise (times `scale` at point 1).
  RunTable table(double count_shift = 0, double time_scale = 1) const {
    RunTable t;
    t.scenario = &scenario;
    for (size_t p = 0; p < 2; ++p) {
      for (int r = 0; r < 5; ++r) {
        RunRow row;
        row.point = p;
        row.replication = r;
        row.seed = 1 + r;
        row.outcome = Outcome::kOk;
        double x = static_cast<double>(p + 1);
        row.metrics["count"] = 10 * x + (p == 1 && r == 2 ? count_shift : 0);
        row.metrics["time_s"] = (x + 0.01 * r) * (p == 1 ? time_scale : 1);
        t.rows.push_back(row);
      }
    }
    return t;
  }
};

CheckResult check(const RunTable& committed, const RunTable& fresh, Scope scope = Scope::kSame,
                  const CheckRules& rules = {}) {
  return check_scenario(result_rows(committed), committed, fresh, rules, scope);
}

const Cell* moved_cell(const CheckResult& result, const std::string& metric) {
  for (const auto& cell : result.values.cells) {
    if (cell.metric == metric && !cell.pass()) return &cell;
  }
  return nullptr;
}

TEST(Check, IdenticalRunsPass) {
  Fixture f;
  auto result = check(f.table(), f.table());
  EXPECT_TRUE(result.pass());
  EXPECT_EQ(result.values.exact_values, 10U);
  EXPECT_EQ(result.values.tolerance_values, 10U);
  EXPECT_EQ(result.claims.size(), 1U);
}

TEST(Check, ACountChangedByOneFailsNamingMetricPointAndSeed) {
  Fixture f;
  auto result = check(f.table(), f.table(1));
  ASSERT_FALSE(result.pass());
  const Cell* cell = moved_cell(result, "count");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell->point, "x=2");
  EXPECT_EQ(cell->moved, 1U);
  EXPECT_EQ(cell->largest_seed, 3U);
  EXPECT_EQ(cell->a_at_largest, 20);
  EXPECT_EQ(cell->b_at_largest, 21);
  EXPECT_EQ(moved_cell(result, "time_s"), nullptr);
  auto table = failure_table("checked-scenario", result);
  EXPECT_NE(table.find("| checked-scenario | count | 1 of 10 | +4.76% | x=2, seed 3 | 20 | 21 | exact |"),
            std::string::npos)
      << table;
}

// A deterministic simulator is compared seed by seed: a move far inside the spread over seeds is caught.
TEST(Check, ATimeMovedByATenthOfAPercentOnOneSeedFails) {
  Fixture f;
  RunTable fresh = f.table();
  fresh.rows[7].metrics["time_s"] *= 1.001;  // point x=2, seed 3; the seeds spread by 2%
  auto result = check(f.table(), fresh);
  const Cell* cell = moved_cell(result, "time_s");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell->moved, 1U);
  EXPECT_EQ(cell->largest_seed, 3U);
  EXPECT_NEAR(cell->largest, 0.001 / 1.001, 1e-12);
}

TEST(Check, ARelativeMoveOfOneInATrillionPassesAsFloatingPointNoise) {
  Fixture f;
  RunTable fresh = f.table();
  for (auto& row : fresh.rows) row.metrics["time_s"] *= 1 + 1e-12;
  EXPECT_TRUE(check(f.table(), fresh).pass());
  for (auto& row : fresh.rows) row.metrics["time_s"] *= 1 + 1e-8;
  EXPECT_FALSE(check(f.table(), fresh).pass());
}

TEST(Check, AToleranceSetPerMetricWidensOnlyThatMetric) {
  Fixture f;
  RunTable fresh = f.table(1, 1.001);
  auto rules = check_rules(f.study.metrics, {{"time_s", 1e-2}}, {});
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto result = check(f.table(), fresh, Scope::kSame, *rules);
  EXPECT_EQ(moved_cell(result, "time_s"), nullptr);
  EXPECT_NE(moved_cell(result, "count"), nullptr);  // exact stays exact
  auto flag = check_rules(f.study.metrics, {}, {"1e-2"});
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(flag->tolerance_for("time_s"), 1e-2);
}

TEST(Check, BadTolerancesAreRefused) {
  Fixture f;
  auto exact = check_rules(f.study.metrics, {}, {"count=1e-3"});
  ASSERT_FALSE(exact.ok());
  EXPECT_NE(exact.status().message().find("count is an exact count"), std::string::npos);
  auto unknown = check_rules(f.study.metrics, {}, {"nope=1e-3"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown metric \"nope\", expected one of: count, time_s"),
            std::string::npos)
      << unknown.status().message();
  EXPECT_FALSE(check_rules(f.study.metrics, {}, {"-1"}).ok());
  EXPECT_FALSE(check_rules(f.study.metrics, {}, {"time_s=tight"}).ok());
}

TEST(Check, AMissingSeedIsAFailureNeverSkipped) {
  Fixture f;
  RunTable fresh = f.table();
  fresh.rows.erase(fresh.rows.begin() + 4);  // x=1, seed 5
  auto result = check(f.table(), fresh);
  ASSERT_EQ(result.values.missing.size(), 1U);
  EXPECT_EQ(result.values.missing[0].point, "x=1");
  EXPECT_EQ(result.values.missing[0].seed, 5U);
  EXPECT_EQ(result.values.missing[0].absent_from, "now");
  EXPECT_FALSE(result.pass());
  // A quick check runs fewer seeds by design: the committed seeds it did not run are out of its scope,
  // but a fresh seed the committed table lacks is still missing.
  EXPECT_TRUE(check(f.table(), fresh, Scope::kSubset).pass());
  auto committed = fresh;
  auto lacking = check(committed, f.table(), Scope::kSubset);
  ASSERT_EQ(lacking.values.missing.size(), 1U);
  EXPECT_EQ(lacking.values.missing[0].absent_from, "committed");
}

TEST(Check, AChangedParameterIsNamedOnceNotAsEveryRowMissing) {
  Fixture f;
  Fixture moved;
  moved.set_points({{"1"}, {"3"}});
  auto result = check(f.table(), moved.table());
  ASSERT_EQ(result.values.grid_changes.size(), 1U);
  EXPECT_EQ(result.values.grid_changes[0], "parameter x changed from 2 (committed) to 3 (now)");
  EXPECT_TRUE(result.values.missing.empty());
  EXPECT_FALSE(result.pass());
}

TEST(Check, ParametersArePairedByNameWhateverTheirColumnOrder) {
  Fixture f;
  f.scenario.param_columns = {"x", "y"};
  f.set_points({{"1", "7"}, {"2", "7"}});
  auto committed = result_rows(f.table());
  std::swap(committed.param_columns[0], committed.param_columns[1]);
  for (auto& row : committed.rows)
    std::swap(row.point[0], row.point[1]), std::swap(row.labels[0], row.labels[1]);
  auto same = compare_rows(committed, result_rows(f.table()), f.study.metrics, Engine::kSim, {}, Scope::kSame,
                           "committed", "now");
  EXPECT_TRUE(same.pass()) << (same.grid_changes.empty() ? "" : same.grid_changes[0]);
  committed.param_columns[0] = "z";
  auto renamed = compare_rows(committed, result_rows(f.table()), f.study.metrics, Engine::kSim, {},
                              Scope::kSame, "committed", "now");
  ASSERT_EQ(renamed.grid_changes.size(), 1U);
  EXPECT_EQ(renamed.grid_changes[0], "parameter y is new in now (not in committed)");
}

// A knob added at its default: the older rows are taken to have had it, named in a note; the metrics judge.
TEST(Check, AParameterAddedAtOneValueIsPairedWithANote) {
  Fixture f;
  const ResultRows committed = result_rows(f.table());
  f.scenario.param_columns = {"x", "file"};
  std::vector<GridPoint> points;
  for (size_t p = 0; p < f.scenario.grid.size(); ++p) {
    GridPoint point = f.scenario.grid[p];
    point.column_values.push_back("");
    point.column_labels.push_back("");
    points.push_back(std::move(point));
  }
  f.scenario.grid = Grid::of(points);
  auto added = compare_rows(committed, result_rows(f.table()), f.study.metrics, Engine::kSim, {},
                            Scope::kSame, "committed", "now");
  EXPECT_TRUE(added.pass()) << (added.grid_changes.empty() ? "" : added.grid_changes[0]);
  ASSERT_EQ(added.notes.size(), 1U);
  EXPECT_EQ(added.notes[0],
            "parameter file is new in now, at \"\" in every run: compared as if the other runs had it");
  EXPECT_GT(added.exact_values, 0U);
  points[1].column_values[1] = points[1].column_labels[1] = "other.bin";  // not one value
  f.scenario.grid = Grid::of(points);
  auto varied = compare_rows(committed, result_rows(f.table()), f.study.metrics, Engine::kSim, {},
                             Scope::kSame, "committed", "now");
  ASSERT_EQ(varied.grid_changes.size(), 1U);
  EXPECT_EQ(varied.grid_changes[0], "parameter file is new in now (not in committed)");
}

TEST(Check, AClaimBelowItsBoundFails) {
  Fixture f;
  auto result = check(f.table(), f.table(0, 0.7));  // time ratio 2 -> 1.4 < 1.5
  bool claim_failed = false;
  for (const auto& v : result.claims) claim_failed |= !v.holds() && v.claim.name == "time at x=2 / x=1";
  EXPECT_TRUE(claim_failed);
}

TEST(Check, MicroTimingsAreJudgedOnlyByClaims) {
  Fixture f;
  f.scenario.engine = Engine::kMicro;
  auto result = check(f.table(), f.table(0, 1.2));  // 20% slower: noise on a shared machine
  EXPECT_EQ(moved_cell(result, "time_s"), nullptr);
  EXPECT_TRUE(result.pass());
  EXPECT_FALSE(check(f.table(), f.table(1)).pass());  // counters stay exact
}

TEST(Check, MissingOrMalformedResultsAreErrorsNotPasses) {
  Fixture f;
  TempDir dir;
  auto missing = read_results(f.scenario, dir / "nope.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no committed results"), std::string::npos);

  testing::write_file(dir / "short.csv", "x,seed,count,time_s,error\n1,1,10\n");
  auto short_row = read_results(f.scenario, dir / "short.csv");
  ASSERT_FALSE(short_row.ok());
  EXPECT_NE(short_row.status().message().find("short.csv:2: 3 fields, expected 5"), std::string::npos)
      << short_row.status().message();

  testing::write_file(dir / "nan.csv", "x,seed,count,time_s,error\n1,1,ten,1.0,\n");
  auto not_number = read_results(f.scenario, dir / "nan.csv");
  ASSERT_FALSE(not_number.ok());
  EXPECT_NE(not_number.status().message().find("nan.csv:2: count = \"ten\" is not a number"),
            std::string::npos);

  testing::write_file(dir / "excel.csv", "\xEF\xBB\xBFx,seed,count,time_s,error\n1,1,10,1.0,\n");
  auto with_bom = read_results(f.scenario, dir / "excel.csv");
  EXPECT_TRUE(with_bom.ok()) << with_bom.status().message();

  testing::write_file(dir / "columns.csv", "x,seed,count,error\n");
  auto no_column = read_results(f.scenario, dir / "columns.csv");
  ASSERT_FALSE(no_column.ok());
  EXPECT_NE(no_column.status().message().find("no column \"time_s\""), std::string::npos);
}

// End to end on the shipped prefetch study: the committed results pass; a copy with one RPC count moved
// by one fails with a table naming it, exit 1; a missing results file is an input error (exit 2).
TEST(Check, PerflabCheckPassesOnCommittedResultsAndFailsOnAPerturbedCopy) {
  auto ok = run_perflab("check prefetch --quick");
  ASSERT_EQ(ok.status, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("prefetch: ok"), std::string::npos) << ok.out;

  TempDir results;
  fs::copy(PERFLAB_RESULTS_DIR "/prefetch", results / "prefetch", fs::copy_options::recursive);
  fs::path csv = results / "prefetch" / "prefetch-jgit-clone.csv";
  auto rows = testing::parse_csv(testing::read_file(csv));
  ASSERT_FALSE(rows.empty());
  std::string text = testing::read_file(csv);
  // The second data row's rpcs: rewrite the file with that one value moved by one.
  std::string header = text.substr(0, text.find('\n'));
  auto fields = split_csv_line(header);
  size_t rpcs_column = std::find(fields.begin(), fields.end(), "rpcs") - fields.begin();
  size_t start = text.find('\n') + 1;
  start = text.find('\n', start) + 1;  // second data row
  size_t end = text.find('\n', start);
  auto row = split_csv_line(text.substr(start, end - start));
  long moved = std::stol(row[rpcs_column]) + 1;
  // Rebuild the row with csv quoting where needed.
  std::string rebuilt;
  for (size_t i = 0; i < row.size(); ++i) {
    std::string field = i == rpcs_column ? std::to_string(moved) : row[i];
    bool quote = field.find_first_of(",\"\n") != std::string::npos;
    rebuilt += (i ? "," : "") + (quote ? "\"" + field + "\"" : field);
  }
  testing::write_file(csv, text.substr(0, start) + rebuilt + text.substr(end));
  auto failed = run_perflab("check prefetch --quick", {{"PERFLAB_RESULTS", results.path().string()}});
  EXPECT_EQ(failed.status, 1) << failed.out << failed.err;
  EXPECT_NE(failed.out.find("| rpcs | 1 of "), std::string::npos) << failed.out;

  fs::remove(csv);
  auto missing = run_perflab("check prefetch --quick", {{"PERFLAB_RESULTS", results.path().string()}});
  EXPECT_EQ(missing.status, 2) << missing.out << missing.err;
  EXPECT_NE(missing.err.find("no committed results"), std::string::npos) << missing.err;
}

// A copy of one study's committed results with `metric` of some rows scaled by `factor` (every row when
// `only_seed` is 0), written back with full precision, as a model change would move them.
void scale_metric(const fs::path& csv, const std::string& metric, double factor, uint64_t only_seed = 0) {
  std::string text = testing::read_file(csv);
  std::istringstream lines(text);
  std::string header, line, out;
  std::getline(lines, header);
  auto columns = split_csv_line(header);
  size_t column = std::find(columns.begin(), columns.end(), metric) - columns.begin();
  size_t seed = std::find(columns.begin(), columns.end(), "seed") - columns.begin();
  ASSERT_LT(column, columns.size()) << metric;
  out = header + "\n";
  while (std::getline(lines, line)) {
    auto fields = split_csv_line(line);
    if (fields.back().empty() && (only_seed == 0 || std::stoull(fields[seed]) == only_seed)) {
      fields[column] = fmt::format("{:.17g}", std::stod(fields[column]) * factor);
    }
    for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    out += "\n";
  }
  testing::write_file(csv, out);
}

// The headline scenario of each deterministic sim study, and two simulated metrics it reports.
struct Headline {
  const char* study;
  const char* scenario;
  const char* metric;
  const char* other_scenario;  // of the same study
  const char* other_metric;
};
const Headline kHeadlines[] = {
    {"prefetch", "prefetch-jgit-clone", "duration_s", "prefetch-traversal", "duration_s"},
    {"share", "share-download-12mib", "duration_s", "share-download-12mib", "cpu_s"},
    {"pipe", "pipe-git-clone", "duration_s", "pipe-git-clone", "throughput_mib_s"}};

class CompareHeadline : public ::testing::TestWithParam<Headline> {};

// `perflab compare` on two copies of a study's committed results: identical copies pass; a relative move
// of 1e-12 passes; 0.1% on one seed and 1% on every seed are each caught, naming the metric; a missing
// seed is a failure; two different scenarios are refused (exit 2).
TEST_P(CompareHeadline, CatchesEveryMoveBeyondFloatingPointNoise) {
  const Headline& h = GetParam();
  TempDir dir;
  auto copy = [&](const std::string& name) {
    fs::create_directories(dir / name);
    for (const char* ext : {".csv", ".summary.csv", ".meta"}) {
      fs::path from = fs::path(PERFLAB_RESULTS_DIR) / h.study / (std::string(h.scenario) + ext);
      if (fs::exists(from)) fs::copy_file(from, dir / name / (std::string(h.scenario) + ext));
    }
    return dir / name / (std::string(h.scenario) + ".csv");
  };
  copy("a");
  auto compare = [&](const fs::path& b) {
    return run_perflab("compare " + (dir / "a").string() + " " + b.parent_path().string());
  };
  auto same = compare(copy("same"));
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("nothing moved"), std::string::npos) << same.out;

  auto noise = copy("noise");
  scale_metric(noise, h.metric, 1 + 1e-12);
  EXPECT_EQ(compare(noise).status, 0) << compare(noise).out;

  auto one_seed = copy("one-seed");
  scale_metric(one_seed, h.metric, 1.001, 2);
  auto moved = compare(one_seed);
  EXPECT_EQ(moved.status, 1) << moved.out << moved.err;
  EXPECT_NE(moved.out.find(std::string("moved: ") + h.metric), std::string::npos) << moved.out;
  EXPECT_NE(moved.out.find("(seed 2) |"), std::string::npos) << moved.out;

  auto all_seeds = copy("all-seeds");
  scale_metric(all_seeds, h.metric, 1.01);
  auto all = run_perflab("compare " + (dir / "a").string() + " " + all_seeds.parent_path().string() +
                         " --format csv");
  EXPECT_EQ(all.status, 1) << all.out << all.err;
  auto rows = testing::parse_csv(all.out);
  size_t moved_cells = 0, cells = 0;
  for (const auto& row : rows) {
    if (row.at("metric") != h.metric) continue;
    ++cells;
    moved_cells += row.at("verdict") == "MOVED";
  }
  EXPECT_GT(cells, 0U);
  EXPECT_EQ(moved_cells, cells);

  auto lacking = copy("lacking");
  std::string text = testing::read_file(lacking);
  size_t second_row = text.find('\n', text.find('\n') + 1) + 1;
  testing::write_file(lacking, text.substr(0, second_row) + text.substr(text.find('\n', second_row) + 1));
  auto missing = compare(lacking);
  EXPECT_EQ(missing.status, 0) << missing.out;
  EXPECT_NE(missing.out.find("- coverage: B lacks 1 of A's rows at the points both have: "),
            std::string::npos)
      << missing.out;
  auto required =
      run_perflab("compare --require-all " + (dir / "a").string() + " " + lacking.parent_path().string());
  EXPECT_EQ(required.status, 1) << required.out;
  EXPECT_NE(required.out.find("rows missing (--require-all)"), std::string::npos) << required.out;
}

// The rows of a results CSV whose seed passes `keep` (the header kept): a run with fewer seeds, or one
// interrupted early.
void keep_rows(const fs::path& csv, const std::function<bool(size_t row, uint64_t seed)>& keep) {
  std::istringstream lines(testing::read_file(csv));
  std::string header, line;
  std::getline(lines, header);
  auto columns = split_csv_line(header);
  size_t seed = std::find(columns.begin(), columns.end(), "seed") - columns.begin();
  std::string out = header + "\n";
  for (size_t row = 0; std::getline(lines, line); ++row) {
    if (keep(row, std::stoull(split_csv_line(line)[seed]))) out += line + "\n";
  }
  testing::write_file(csv, out);
}

// compare says which rows it compared before what moved: fewer seeds in B, or B interrupted, are its
// coverage (exit 0 when nothing common moved), every line short; --require-all fails on them.
TEST(Compare, SaysWhatItComparedAndFailsOnlyWhenACommonValueMoved) {
  TempDir dir;
  for (const char* side : {"a", "fewer", "cut"})
    fs::copy(fs::path(PERFLAB_RESULTS_DIR) / "prefetch", dir / side, fs::copy_options::recursive);
  auto seeds = read_result_rows(dir / "a" / "prefetch-jgit-clone.csv");
  ASSERT_TRUE(seeds.ok());
  std::set<uint64_t> all;
  for (const auto& row : seeds->rows) all.insert(row.seed);
  ASSERT_GE(all.size(), 3U);
  keep_rows(dir / "fewer" / "prefetch-jgit-clone.csv", [](size_t, uint64_t seed) { return seed <= 2; });
  auto fewer = run_perflab("compare " + (dir / "a").string() + " " + (dir / "fewer").string());
  EXPECT_EQ(fewer.status, 0) << fewer.out << fewer.err;
  EXPECT_NE(
      fewer.out.find(fmt::format("- coverage: B has 2 of A's {} seeds at every point (1-2); compared on "
                                 "those",
                                 all.size())),
      std::string::npos)
      << fewer.out;
  EXPECT_EQ(fewer.out.find("missing:"), std::string::npos) << fewer.out;
  EXPECT_LT(fewer.out.find("- coverage:"), fewer.out.find("| point")) << "coverage comes before the moves";

  keep_rows(dir / "cut" / "prefetch-jgit-clone.csv", [](size_t row, uint64_t) { return row < 3; });
  auto cut = run_perflab("compare " + (dir / "a").string() + " " + (dir / "cut").string());
  EXPECT_EQ(cut.status, 0) << cut.out << cut.err;
  EXPECT_NE(cut.out.find("- coverage: B lacks "), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find(" more"), std::string::npos) << "a long list is cut to its first few: " << cut.out;
  std::istringstream lines(cut.out);
  for (std::string line; std::getline(lines, line);) EXPECT_LT(line.size(), 400U) << line;
  auto required = run_perflab("compare --require-all " + (dir / "a").string() + " " + (dir / "cut").string());
  EXPECT_EQ(required.status, 1) << required.out;

  scale_metric(dir / "cut" / "prefetch-jgit-clone.csv", "duration_s", 1.01);
  auto moved = run_perflab("compare " + (dir / "a").string() + " " + (dir / "cut").string());
  EXPECT_EQ(moved.status, 1) << moved.out;
  EXPECT_NE(moved.out.find("moved: duration_s"), std::string::npos) << moved.out;
}

// A scenario's name as `perflab list` prints it stands for its committed results.
TEST(Compare, TakesAScenarioNameForItsCommittedResults) {
  TempDir dir;
  fs::copy(fs::path(PERFLAB_RESULTS_DIR) / "prefetch", dir / "b", fs::copy_options::recursive);
  for (const char* name : {"prefetch/jgit-clone", "prefetch/jgit-clone.toml"}) {
    auto result = run_perflab(std::string("compare ") + name + " " + (dir / "b").string());
    EXPECT_EQ(result.status, 0) << name << result.out << result.err;
    EXPECT_NE(result.out.find("## prefetch-jgit-clone (prefetch, sim engine): nothing moved"),
              std::string::npos)
        << result.out;
    EXPECT_EQ(result.out.find("prefetch-traversal"), std::string::npos) << "only the named scenario";
  }
}

INSTANTIATE_TEST_SUITE_P(Studies, CompareHeadline, ::testing::ValuesIn(kHeadlines),
                         [](const auto& info) { return std::string(info.param.study); });

TEST(Compare, RefusesDifferentScenariosAndMalformedFiles) {
  TempDir dir;
  fs::copy(fs::path(PERFLAB_RESULTS_DIR) / "prefetch", dir / "prefetch", fs::copy_options::recursive);
  fs::copy(fs::path(PERFLAB_RESULTS_DIR) / "share", dir / "share", fs::copy_options::recursive);
  auto different = run_perflab("compare " + (dir / "prefetch").string() + " " + (dir / "share").string());
  EXPECT_EQ(different.status, 2) << different.out;
  EXPECT_NE(different.err.find("different scenarios"), std::string::npos) << different.err;

  auto nowhere = run_perflab("compare " + (dir / "prefetch").string() + " " + (dir / "nope").string());
  EXPECT_EQ(nowhere.status, 2);
  EXPECT_NE(nowhere.err.find("nope: no such folder"), std::string::npos) << nowhere.err;

  fs::path csv = dir / "share" / "share-download-12mib.csv";
  std::string text = testing::read_file(csv);
  testing::write_file(csv, text + "1,2,3\n");
  auto malformed = run_perflab("compare " + (fs::path(PERFLAB_RESULTS_DIR) / "share").string() + " " +
                               (dir / "share").string());
  EXPECT_EQ(malformed.status, 2);
  std::string line = std::to_string(std::count(text.begin(), text.end(), '\n') + 1);
  EXPECT_NE(malformed.err.find("share-download-12mib.csv:" + line + ": 3 fields"), std::string::npos)
      << malformed.err;
}

// Every file under `dir` (relative path -> content).
std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).string()] = testing::read_file(entry.path());
  }
  return files;
}

// A folder of shipped scenarios holding one small headline scenario of the pingpong study (a second of
// runs), for the reproduce tests: PERFLAB_SCENARIOS points perflab at it.
struct OneHeadline {
  TempDir scenarios, results;
  std::map<std::string, std::string> env;
  OneHeadline() {
    fs::create_directories(scenarios / "pingpong");
    testing::write_file(
        scenarios / "pingpong" / "small.toml",
        "[scenario]\nname = \"pingpong-small\"\nstudy = \"pingpong\"\nheadline = true\nseeds = 2\n"
        "[network]\nlatency = \"uniform(5ms, 25ms)\"\nbandwidth = \"100MBps\"\n"
        "[sweep]\nrequests = [3, 30]\n");
    env = {{"PERFLAB_SCENARIOS", scenarios.path().string()}, {"PERFLAB_RESULTS", results.path().string()}};
  }
};

// A user's `reproduce` writes its own folder (CSV files, README.md, the site) and says which page to
// open; the committed results/ stay byte for byte as they were.
TEST(Reproduce, WritesItsOwnFolderAndLeavesTheCommittedResultsAlone) {
  OneHeadline headline;
  TempDir out;
  fs::copy(fs::path(PERFLAB_RESULTS_DIR) / "prefetch", headline.results / "prefetch",
           fs::copy_options::recursive);
  auto before = files_under(headline.results.path());
  // A study the folder already holds, not rerun this time: its figures are drawn too.
  fs::copy(fs::path(PERFLAB_RESULTS_DIR) / "prefetch", out / "prefetch", fs::copy_options::recursive);
  fs::remove(out / "prefetch" / "prefetch-jgit-clone.duration_s.svg");
  auto run = run_perflab("reproduce --out " + out.path().string(), headline.env);
  ASSERT_EQ(run.status, 0) << run.err;
  for (const char* file : {"pingpong/pingpong-small.csv", "pingpong/pingpong-small.meta", "README.md",
                           "index.html", "pingpong.html", "pingpong/pingpong-small.duration_s.svg",
                           "prefetch/prefetch-jgit-clone.duration_s.svg"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  // The renderer prints the reproduced scenario's summary (intervals as mean [low, high]), not the others'.
  EXPECT_NE(run.out.find("## pingpong-small"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("## prefetch-jgit-clone"), std::string::npos) << run.out;
  EXPECT_NE(testing::read_file(out / "README.md").find("](pingpong/pingpong-small.duration_s.svg)"),
            std::string::npos);
  EXPECT_NE(run.err.find("open " + (out / "index.html").string()), std::string::npos) << run.err;
  EXPECT_EQ(files_under(headline.results.path()), before);
}

// The maintainer's `reproduce --update` prints what moved against the committed results, then replaces
// them: results with one metric doubled are caught, named, and rewritten from the fresh runs.
TEST(Reproduce, UpdateSaysWhatMovedThenRewritesTheResults) {
  OneHeadline headline;
  auto first = run_perflab("reproduce --update", headline.env);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_NE(first.out.find("pingpong: new"), std::string::npos) << first.out;
  fs::path csv = headline.results / "pingpong" / "pingpong-small.csv";
  std::string fresh = testing::read_file(csv);
  EXPECT_TRUE(fs::exists(headline.results / "index.html"));

  scale_metric(csv, "messages", 2);
  auto update = run_perflab("reproduce --update", headline.env);
  ASSERT_EQ(update.status, 0) << update.err;
  EXPECT_NE(update.out.find("Against the committed results/"), std::string::npos) << update.out;
  EXPECT_NE(update.out.find("| messages |"), std::string::npos) << update.out;
  EXPECT_EQ(testing::read_file(csv), fresh);
  auto check = run_perflab("check", headline.env);
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_FALSE(fs::exists(headline.results / "check.txt"));  // a check records nothing unless asked
}

class CheckHeadline : public ::testing::TestWithParam<Headline> {};

// `perflab check` end to end on a study's quick run: one seed's time moved by 0.1% and another metric's
// every seed by 1% are both caught, each with the seed where it moved most.
TEST_P(CheckHeadline, CatchesATenthOfAPercentOnOneSeedAndOnePercentOnAll) {
  const Headline& h = GetParam();
  TempDir results;
  fs::copy(fs::path(PERFLAB_RESULTS_DIR) / h.study, results / h.study, fs::copy_options::recursive);
  scale_metric(results / h.study / (std::string(h.scenario) + ".csv"), h.metric, 1.001, 2);
  scale_metric(results / h.study / (std::string(h.other_scenario) + ".csv"), h.other_metric, 1.01);
  auto failed =
      run_perflab(std::string("check --quick ") + h.study, {{"PERFLAB_RESULTS", results.path().string()}});
  EXPECT_EQ(failed.status, 1) << failed.out << failed.err;
  EXPECT_NE(failed.out.find(std::string("| ") + h.scenario + " | " + h.metric + " | "), std::string::npos)
      << failed.out;
  EXPECT_NE(failed.out.find("seed 2 |"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find(std::string("| ") + h.other_scenario + " | " + h.other_metric + " | "),
            std::string::npos)
      << failed.out;
}

INSTANTIATE_TEST_SUITE_P(Studies, CheckHeadline, ::testing::ValuesIn(kHeadlines),
                         [](const auto& info) { return std::string(info.param.study); });

// Every .meta says where its results came from.
TEST(Provenance, RunOutRecordsCommitBuildHostAndCommand) {
  TempDir out;
  TempDir scenario_dir;
  testing::write_file(scenario_dir / "p.toml", testing::pingpong_scenario("p", "[params]\nrequests = 3\n"));
  auto run =
      run_perflab("run " + (scenario_dir / "p.toml").string() + " --seeds 1 --out " + out.path().string());
  ASSERT_EQ(run.status, 0) << run.err;
  auto meta = read_meta(out / "p.meta");
  for (const char* key : {"commit", "dirty", "compiler", "simgrid", "perflab", "host", "date", "command"}) {
    EXPECT_EQ(meta.count(key), 1U) << key;
    EXPECT_FALSE(meta[key].empty()) << key;
  }
  EXPECT_TRUE(meta["dirty"] == "true" || meta["dirty"] == "false");
  EXPECT_EQ(meta["perflab"].rfind("sha256:", 0), 0U) << meta["perflab"];
  EXPECT_EQ(meta["perflab"].size(), 7U + 64U);
  EXPECT_NE(meta["command"].find("run " + (scenario_dir / "p.toml").string() + " --seeds 1 --out"),
            std::string::npos)
      << meta["command"];
  EXPECT_NE(meta["simgrid"].find('.'), std::string::npos);
  EXPECT_EQ(meta["date"].size(), std::string("2026-12-01T21:30:00Z").size()) << meta["date"];
  EXPECT_EQ(meta.count("load_before"), 0U);  // recorded around micro-engine timings only
}

// A report's record line names the executable beside the checkout, so an older binary run in a newer
// checkout is not taken for that checkout's build.
TEST(Provenance, RecordLineNamesTheExecutable) {
  Provenance p;
  p.date = "2026-12-04T06:00:00Z";
  p.host = "AMD EPYC, 2 cores";
  p.commit = "abc";
  p.perflab = "sha256:5d68";
  EXPECT_EQ(p.ran(), "ran 2026-12-04T06:00:00Z on AMD EPYC, 2 cores at commit abc, executable sha256:5d68");
  p.dirty = true;
  EXPECT_EQ(
      p.ran(),
      "ran 2026-12-04T06:00:00Z on AMD EPYC, 2 cores at commit abc (with uncommitted changes), executable "
      "sha256:5d68");
}

// An environment that changes how the process allocates is recorded (it changes what the dispatcher's real
// walks cost); glibc's defaults add nothing to a record.
TEST(Provenance, TheAllocatorEnvironmentIsRecordedWhenSet) {
  const auto unset_all = [] {  // whatever this test runs under: every MALLOC_* too
    std::vector<std::string> names = {"GLIBC_TUNABLES", "LD_PRELOAD"};
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string setting = *entry;
      if (setting.rfind("MALLOC_", 0) == 0) names.push_back(setting.substr(0, setting.find('=')));
    }
    for (const auto& name : names) unsetenv(name.c_str());
  };
  unset_all();
  EXPECT_EQ(allocator_environment(), "");
  setenv("GLIBC_TUNABLES", "glibc.pthread.rseq=0", 1);  // no malloc tunable
  EXPECT_EQ(allocator_environment(), "");
  setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
  setenv("MALLOC_ARENA_MAX", "1", 1);
  EXPECT_EQ(allocator_environment(), "GLIBC_TUNABLES=glibc.malloc.tcache_count=0, MALLOC_ARENA_MAX=1");
  unset_all();

  Provenance p;
  p.date = "2026-12-04T06:00:00Z";
  p.host = "AMD EPYC, 2 cores";
  p.commit = "abc";
  p.perflab = "sha256:5d68";
  p.allocator = "MALLOC_ARENA_MAX=1";
  EXPECT_EQ(p.ran(),
            "ran 2026-12-04T06:00:00Z on AMD EPYC, 2 cores at commit abc, executable sha256:5d68, allocator "
            "environment: MALLOC_ARENA_MAX=1");
  EXPECT_EQ(p.fields().back(), (std::pair<std::string, std::string>{"allocator", "MALLOC_ARENA_MAX=1"}));
  p.allocator.clear();
  EXPECT_EQ(p.fields().back().first, "command");
}

}  // namespace
}  // namespace perflab
