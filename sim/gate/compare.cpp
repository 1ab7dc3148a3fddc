// See compare.h.
#include "sim/gate/compare.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/text/json_text.h"
#include "sim/text/markdown.h"
#include "sim/gate/provenance.h"
#include "sim/scenario/scenario.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// name -> <name>.csv for every run's rows under `folder` (a CSV with a <name>.summary.csv beside it).
Result<std::map<std::string, fs::path>> result_csvs(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return Status::Error(folder.string() +
                         ": no such folder, expected a `perflab run --out` folder or results/");
  std::map<std::string, fs::path> csvs;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::string file = it->path().filename().string();
    if (!it->is_regular_file() || !ends_with(file, ".csv") || ends_with(file, ".summary.csv") ||
        ends_with(file, ".repetitions.csv"))
      continue;
    std::string name = file.substr(0, file.size() - 4);
    if (!fs::exists(it->path().parent_path() / (name + ".summary.csv"))) continue;
    csvs[name] = it->path();
  }
  if (csvs.empty())
    return Status::Error(folder.string() + ": no results here, expected <name>.csv with <name>.summary.csv");
  return csvs;
}

std::vector<std::string> names_of(const std::vector<MetricSpec>& metrics) {
  std::vector<std::string> names;
  for (const auto& m : metrics) names.push_back(m.name);
  return names;
}

// The study and engine whose metric columns the CSV has: from the .meta, else by the columns alone.
Result<std::pair<const Study*, Engine>> study_of(const fs::path& csv, const ResultRows& rows) {
  auto meta = read_meta(fs::path(csv).replace_extension(".meta"));
  if (meta.count("study") != 0) {
    auto study = study_named(meta["study"]);
    if (!study.ok())
      return Status::Error(fs::path(csv).replace_extension(".meta").string() + ": " +
                           study.status().message());
    Engine engine = parse_engine(meta["engine"]).value_or(Engine::kSim);
    return std::pair{*study, engine};
  }
  for (const Study* study : all_studies()) {
    for (Engine engine : {Engine::kSim, Engine::kMicro, Engine::kReal}) {
      if (names_of(study->metrics_for(engine)) == rows.metric_columns) return std::pair{study, engine};
    }
  }
  return Status::Error(csv.string() + ":1: no .meta beside it and no study has these metric columns (" +
                       join(rows.metric_columns) + ")");
}

std::string provenance_of(const fs::path& csv) {
  auto meta = read_meta(fs::path(csv).replace_extension(".meta"));
  if (meta.count("commit") == 0) return "no provenance recorded";
  return fmt::format("commit {}{}, {}, SimGrid {}, {}", meta["commit"].substr(0, 12),
                     meta["dirty"] == "true" ? " with uncommitted changes" : "", meta["compiler"],
                     meta["simgrid"], meta["date"]);
}

// The scenario file the .meta names, if it still loads: its [check] tolerances and its claims.
std::optional<Scenario> scenario_of(const fs::path& csv) {
  auto meta = read_meta(fs::path(csv).replace_extension(".meta"));
  if (meta.count("file") == 0) return std::nullopt;
  fs::path file = meta["file"];
  if (file.is_relative()) file = scenarios_dir() / file;
  auto scenario = load_scenario(file, {});
  if (!scenario.ok()) return std::nullopt;
  return std::move(scenario).value();
}

Result<ScenarioComparison> compare_scenario(const std::string& name, const fs::path& a_csv,
                                            const fs::path& b_csv, const CompareOptions& options) {
  auto a = read_result_rows(a_csv);
  if (!a.ok()) return a.status();
  auto b = read_result_rows(b_csv);
  if (!b.ok()) return b.status();
  if (a->metric_columns != b->metric_columns) {
    return Status::Error(fmt::format("{} and {} are results of different scenarios: metrics {} vs {}",
                                     a_csv.string(), b_csv.string(), join(a->metric_columns),
                                     join(b->metric_columns)));
  }
  auto study = study_of(a_csv, *a);
  if (!study.ok()) return study.status();
  ScenarioComparison result;
  result.name = name;
  result.study = study->first->name;
  result.engine = study->second;
  result.a_csv = a_csv;
  result.b_csv = b_csv;
  result.a_provenance = provenance_of(a_csv);
  result.b_provenance = provenance_of(b_csv);
  const auto& metrics = study->first->metrics_for(result.engine);
  auto scenario = scenario_of(a_csv);
  auto rules = check_rules(metrics, scenario ? scenario->check_tolerances : std::map<std::string, double>{},
                           options.tolerance_flags);
  if (!rules.ok()) return rules.status();
  result.require_all = options.require_all;
  result.values = compare_rows(*a, *b, metrics, result.engine, *rules, Scope::kCommon, "A", "B");
  if (!result.values.grid_changes.empty()) {
    return Status::Error(fmt::format("{} and {} have no grid point in common: {}", a_csv.string(),
                                     b_csv.string(), join_first(result.values.grid_changes, 3)));
  }
  // The claims, when the scenario file lays both CSVs over its grid without leaving a row out.
  if (scenario && study->first->claims) {
    auto a_table = read_results(*scenario, a_csv);
    auto b_table = read_results(*scenario, b_csv);
    if (a_table.ok() && b_table.ok() && a_table->rows.size() == a->rows.size() &&
        b_table->rows.size() == b->rows.size()) {
      result.claims = judge_claims(*a_table, *b_table);
    }
  }
  return result;
}

std::string number(double value) {
  return std::isfinite(value) ? fmt::format("{:.6g}", value) : format_number(value);
}

std::string mean_change(const Cell& cell) {
  if (cell.mean_a == cell.mean_b) return "0";
  if (cell.mean_a == 0) return "new";
  return relative_text((cell.mean_b - cell.mean_a) / std::fabs(cell.mean_a));
}

std::string verdict(const Cell& cell) {
  if (cell.judgement == Judgement::kNotJudged) return "timing";
  return cell.pass() ? "same" : "MOVED";
}

std::vector<std::string> moved_metrics(const ScenarioComparison& s) {
  std::vector<std::string> names;
  for (const auto& cell : s.values.cells) {
    if (!cell.pass() && std::find(names.begin(), names.end(), cell.metric) == names.end())
      names.push_back(cell.metric);
  }
  for (const auto& claim : s.claims) {
    if (!claim.holds()) names.push_back("claim \"" + claim.claim.name + "\"");
  }
  return names;
}

std::string markdown(const FolderComparison& c, bool all) {
  std::string out = fmt::format("# perflab compare\n\nA = `{}`, B = `{}`\n\n", c.a.string(), c.b.string());
  for (const auto& name : c.only_in_a) out += fmt::format("- {}: only in A, not compared\n", name);
  for (const auto& name : c.only_in_b) out += fmt::format("- {}: only in B, not compared\n", name);
  if (!c.only_in_a.empty() || !c.only_in_b.empty()) out += "\n";
  for (const auto& s : c.scenarios) {
    auto moved = moved_metrics(s);
    out += fmt::format("## {} ({}, {} engine): {}\n\n", s.name, s.study, engine_name(s.engine),
                       s.pass()        ? "nothing moved"
                       : moved.empty() ? "rows missing (--require-all)"
                                       : "moved: " + join(moved));
    out += fmt::format("- A: {}\n- B: {}\n", s.a_provenance, s.b_provenance);
    if (s.values.coverage.empty())
      out += "- coverage: A and B hold the same rows (point × seed); all compared\n";
    for (const auto& line : s.values.coverage) out += fmt::format("- coverage: {}\n", line);
    out += fmt::format("- {} values compared exactly, {} within a relative tolerance{}\n\n",
                       s.values.exact_values, s.values.tolerance_values,
                       s.engine == Engine::kMicro ? "; timings are judged by the study's claims" : "");
    for (const auto& change : s.values.outcome_changes) out += fmt::format("- outcome changed: {}\n", change);
    if (!s.values.outcome_changes.empty()) out += "\n";
    MarkdownTable cells(
        {"point", "metric", "A (mean)", "B (mean)", "change", "largest seed move", "tolerance", "verdict"},
        "llrrrrll");
    size_t hidden = 0;
    for (bool moved_pass : {true, false}) {  // moved cells first
      for (const auto& cell : s.values.cells) {
        bool is_moved = !cell.pass();
        if (is_moved != moved_pass) continue;
        if (!is_moved && !all && cell.judgement != Judgement::kNotJudged) {
          ++hidden;
          continue;
        }
        cells.add({cell.point, cell.metric, number(cell.mean_a), number(cell.mean_b), mean_change(cell),
                   cell.largest != 0
                       ? fmt::format("{} (seed {})", relative_text(cell.largest), cell.largest_seed)
                       : "0",
                   tolerance_text(cell), verdict(cell)});
      }
    }
    if (!cells.empty()) out += cells.str();
    if (hidden > 0)
      out += fmt::format("{}{} unchanged point × metric cells not shown (`--all` lists them).\n",
                         cells.empty() ? "" : "\n", hidden);
    if (!s.claims.empty()) {
      MarkdownTable claims({"claim", "A", "B", "bounds", "verdict"}, "lrrll");
      for (const auto& v : s.claims) {
        claims.add({v.claim.name, number(v.before), number(v.claim.value),
                    fmt::format("[{:.4g}, {:.4g}]", v.claim.low, v.claim.high),
                    v.holds() ? "holds" : "FAILS"});
      }
      out += "\n" + claims.str();
    }
    out += "\n";
  }
  bool incomplete = std::any_of(c.scenarios.begin(), c.scenarios.end(),
                                [](const auto& s) { return !s.values.coverage.empty(); });
  out += c.pass()
             ? fmt::format("Nothing moved beyond its tolerance{}.\n",
                           incomplete ? " in the rows both hold (`--require-all` fails on missing rows)" : "")
             : "Something moved beyond its tolerance, or rows are missing with --require-all (exit 1).\n";
  return out;
}

std::string csv(const FolderComparison& c) {
  std::string out = "scenario,point,metric,a,b,change,largest_seed_move,at_seed,tolerance,verdict\n";
  auto line = [&out](const std::vector<std::string>& fields) { out += csv_line(fields); };
  for (const auto& name : c.only_in_a) line({name, "", "", "", "", "", "", "", "", "only in A"});
  for (const auto& name : c.only_in_b) line({name, "", "", "", "", "", "", "", "", "only in B"});
  for (const auto& s : c.scenarios) {
    for (const auto& cell : s.values.cells) {
      line({s.name, cell.point, cell.metric, format_number(cell.mean_a), format_number(cell.mean_b),
            mean_change(cell), relative_text(cell.largest), std::to_string(cell.largest_seed),
            tolerance_text(cell), verdict(cell)});
    }
    for (const auto& text : s.values.coverage) line({s.name, text, "", "", "", "", "", "", "", "coverage"});
    for (const auto& v : s.claims) {
      line({s.name, "", "claim: " + v.claim.name, format_number(v.before), format_number(v.claim.value), "",
            "", "", fmt::format("[{:g}, {:g}]", v.claim.low, v.claim.high), v.holds() ? "holds" : "FAILS"});
    }
  }
  return out;
}

std::string json(const FolderComparison& c) {
  Json scenarios = Json::array();
  for (const auto& s : c.scenarios) {
    Json cells = Json::array();
    for (const auto& cell : s.values.cells) {
      cells.push_back({{"point", cell.point},
                       {"metric", cell.metric},
                       {"a", cell.mean_a},
                       {"b", cell.mean_b},
                       {"largest_seed_move", cell.largest},
                       {"at_seed", cell.largest_seed},
                       {"tolerance", tolerance_text(cell)},
                       {"verdict", verdict(cell)}});
    }
    Json claims = Json::array();
    for (const auto& v : s.claims) {
      claims.push_back({{"name", v.claim.name},
                        {"a", v.before},
                        {"b", v.claim.value},
                        {"low", v.claim.low},
                        {"high", v.claim.high},
                        {"holds", v.holds()}});
    }
    scenarios.push_back({{"name", s.name},
                         {"study", s.study},
                         {"engine", engine_name(s.engine)},
                         {"pass", s.pass()},
                         {"moved", moved_metrics(s)},
                         {"cells", cells},
                         {"common_rows", s.values.common_rows},
                         {"coverage", s.values.coverage},
                         {"claims", claims}});
  }
  return json_text({{"a", c.a.string()},
                    {"b", c.b.string()},
                    {"pass", c.pass()},
                    {"only_in_a", c.only_in_a},
                    {"only_in_b", c.only_in_b},
                    {"scenarios", scenarios}}) +
         "\n";
}

}  // namespace

bool ScenarioComparison::pass() const {
  return values.pass() && (!require_all || values.coverage.empty()) &&
         std::all_of(claims.begin(), claims.end(), [](const auto& v) { return v.holds(); });
}

bool FolderComparison::pass() const {
  return std::all_of(scenarios.begin(), scenarios.end(), [](const auto& s) { return s.pass(); });
}

Result<FolderComparison> compare_folders(const fs::path& a, const fs::path& b,
                                         const CompareOptions& options) {
  auto a_csvs = result_csvs(a);
  if (!a_csvs.ok()) return a_csvs.status();
  auto b_csvs = result_csvs(b);
  if (!b_csvs.ok()) return b_csvs.status();
  FolderComparison result;
  result.a = a;
  result.b = b;
  std::map<std::string, fs::path> a_named = *a_csvs, b_named = *b_csvs;
  if (!options.only.empty()) {
    for (auto* named : {&a_named, &b_named}) {
      for (auto it = named->begin(); it != named->end();)
        it = it->first == options.only ? std::next(it) : named->erase(it);
    }
  }
  for (const auto& [name, csv] : a_named) {
    if (b_named.count(name) == 0) result.only_in_a.push_back(name);
  }
  for (const auto& [name, csv] : b_named) {
    if (a_named.count(name) == 0) {
      result.only_in_b.push_back(name);
      continue;
    }
    auto scenario = compare_scenario(name, a_named.at(name), csv, options);
    if (!scenario.ok()) return scenario.status();
    result.scenarios.push_back(std::move(scenario).value());
  }
  if (result.scenarios.empty()) {
    std::vector<std::string> a_names, b_names;
    for (const auto& [name, csv] : a_named) a_names.push_back(name);
    for (const auto& [name, csv] : b_named) b_names.push_back(name);
    return Status::Error(
        fmt::format("{} and {} hold results of different scenarios ({} vs {}), nothing to compare",
                    a.string(), b.string(), join_first(a_names, 5, ", "), join_first(b_names, 5, ", ")));
  }
  return result;
}

std::string render_comparison(const FolderComparison& comparison, const std::string& format, bool all) {
  if (format == "csv") return csv(comparison);
  if (format == "json") return json(comparison);
  return markdown(comparison, all);
}

}  // namespace perflab
