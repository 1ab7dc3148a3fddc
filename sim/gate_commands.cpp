// The commands of the regression gate: reproduce (rewrite results/ from the headline scenarios), check
// (rerun them and pair them seed by seed with results/) and compare (two result folders). See commands.h.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "sim/check.h"
#include "sim/commands.h"
#include "sim/compare.h"
#include "sim/provenance.h"
#include "sim/results_reader.h"
#include "sim/value_format.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

// A headline scenario may cap runs it knows to be slow with [scenario] point_timeout (its comments say
// why); runs that hit that cap are reported in the table, not counted as a failed reproduction.
bool only_capped_failures(const Scenario& scenario, const RunTable& table) {
  if (scenario.point_timeout_s <= 0) return false;
  for (const auto& row : table.rows) {
    if (row.outcome == Outcome::kFailed) return false;
  }
  return true;
}

// The headline scenarios of the requested studies (all studies if none), in file order; slow ones only
// with `full`.
Result<std::vector<Scenario>> headline_scenarios(const std::vector<std::string>& studies, bool full) {
  for (const auto& name : studies) {
    if (auto study = study_named(name); !study.ok()) return study.status();
  }
  std::vector<Scenario> scenarios;
  for (const auto& file : shipped_scenarios()) {
    auto scenario = load_scenario(file, {});
    if (!scenario.ok()) return scenario.status();
    if (!scenario->headline || (scenario->slow && !full)) continue;
    const auto& study_name = scenario->study->name;
    if (!studies.empty() && std::find(studies.begin(), studies.end(), study_name) == studies.end()) continue;
    scenarios.push_back(std::move(scenario).value());
  }
  if (scenarios.empty()) return Status::Error("no headline scenario found for the requested studies");
  return scenarios;
}

// A line naming how this build differs from the one that made `csv`'s results (compiler, SimGrid), or "".
std::string build_difference(const fs::path& csv) {
  auto meta = read_meta(fs::path(csv).replace_extension(".meta"));
  const Provenance& now = current_provenance();
  std::vector<std::string> differences;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"compiler", now.compiler}, {"simgrid", now.simgrid}}) {
    if (meta.count(key) != 0 && meta[key] != value)
      differences.push_back(fmt::format("{} {} (committed) vs {} (this build)", key, meta[key], value));
  }
  if (differences.empty()) return "";
  return csv.filename().string() + " came from another build: " + join(differences, "; ") +
         ": floating-point results may differ in the last digits; `--tolerance` widens the gate";
}

}  // namespace

int cmd_reproduce(const std::vector<std::string>& studies, int jobs, bool full) {
  auto scenarios = headline_scenarios(studies, full);
  if (!scenarios.ok()) return fail_input(scenarios.status().message());
  int status = 0;
  std::vector<ReproducedScenario> timings;
  for (const auto& scenario : *scenarios) {
    std::fprintf(stderr, "perflab: reproducing %s (%s)\n", scenario.name.c_str(), scenario.file.c_str());
    RunFlags flags;
    flags.jobs = jobs;
    RunTable table;
    fs::path out = results_dir() / scenario.study->name;
    auto start = std::chrono::steady_clock::now();
    int s = execute(scenario, flags, out, &table);
    double wall_s = seconds_since(start);
    if (s == kExitInterrupted || s == kExitBadInput) return s;
    if (s == kExitFailedRuns && only_capped_failures(scenario, table)) {
      std::fprintf(
          stderr,
          "perflab: the failed runs all hit the scenario's own [scenario] point_timeout, which it "
          "sets for runs it expects to be slow; reported in the table, not a reproduction failure\n");
      s = 0;
    }
    status = std::max(status, s);
    std::string report = scenario.study->headline_report ? scenario.study->headline_report(table) : "";
    if (!report.empty()) {
      std::cout << "\n" << report << "\n";
      std::ofstream(out / (scenario.name + ".report.md")) << report;
    }
    timings.push_back(run_record(scenario, table, wall_s));
  }
  std::cout << "\n" << timing_table(timings);
  auto readme = write_results_readme(results_dir());
  if (!readme.ok()) return fail_input(readme.message());
  std::fprintf(stderr, "perflab: wrote %s\n", (results_dir() / "README.md").c_str());
  return status;
}

// `perflab check`: reruns each headline scenario (its [quick] variant with --quick) and pairs it, seed by
// seed, with the committed results (sim/check.h); prints a table of what moved and exits 1, or one line
// per study.
int cmd_check(const std::vector<std::string>& studies, int jobs, bool quick, bool full,
              const std::vector<std::string>& tolerance_flags) {
  auto scenarios = headline_scenarios(studies, full);
  if (!scenarios.ok()) return fail_input(scenarios.status().message());
  const Provenance& build = current_provenance();
  if (build.dirty) {
    std::fprintf(stderr,
                 "perflab: note: the checkout has uncommitted changes (commit %s + changes): the fresh runs "
                 "are of this tree, not of the commit\n",
                 build.commit.substr(0, 12).c_str());
  }
  struct StudyTally {
    size_t scenarios = 0, exact = 0, tolerance = 0, claims = 0;
    double wall_s = 0;
  };
  std::map<std::string, StudyTally> tally;
  std::string failures;
  std::vector<std::string> build_notes;
  size_t failed_scenarios = 0;
  for (const auto& headline : *scenarios) {
    auto scenario = quick ? load_scenario(headline.file, headline.quick) : Result<Scenario>(headline);
    if (!scenario.ok())
      return fail_input(headline.file.string() + " [quick]: " + scenario.status().message());
    const std::string& study = scenario->study->name;
    fs::path committed_csv = results_dir() / study / (scenario->name + ".csv");
    auto committed = read_results(*scenario, committed_csv);
    if (!committed.ok()) return fail_input(committed.status().message());
    auto committed_rows = read_result_rows(committed_csv);
    if (!committed_rows.ok()) return fail_input(committed_rows.status().message());
    auto rules = check_rules(scenario->study->metrics_for(scenario->engine), scenario->check_tolerances,
                             tolerance_flags);
    if (!rules.ok()) return fail_input(rules.status().message());
    std::fprintf(stderr, "perflab: checking %s%s\n", scenario->name.c_str(), quick ? " (quick)" : "");
    auto options = run_options_for(*scenario, jobs);
    auto start = std::chrono::steady_clock::now();
    auto fresh = run_scenario(*scenario, options);
    if (!fresh.ok()) return fail_input(fresh.status().message());
    if (fresh->interrupted) return kExitInterrupted;
    auto result =
        check_scenario(*committed_rows, *committed, *fresh, *rules, quick ? Scope::kSubset : Scope::kSame);
    StudyTally& t = tally[study];
    t.scenarios += 1;
    t.exact += result.values.exact_values;
    t.tolerance += result.values.tolerance_values;
    t.claims += result.claims.size();
    for (const auto& note : result.values.notes)
      std::fprintf(stderr, "perflab: %s: %s\n", scenario->name.c_str(), note.c_str());
    t.wall_s += seconds_since(start);
    if (!result.pass()) {
      ++failed_scenarios;
      failures += failure_table(scenario->name, result) + "\n";
      auto note = build_difference(committed_csv);
      if (!note.empty()) build_notes.push_back(note);
    }
  }
  if (failed_scenarios > 0) {
    std::fputs(failures.c_str(), stdout);
    for (const auto& note : build_notes) std::printf("Note: %s.\n", note.c_str());
    if (build.dirty) std::printf("Note: this checkout has uncommitted changes.\n");
    std::fprintf(stderr,
                 "perflab: check failed: %zu scenario(s) differ from the committed results; if the change is "
                 "deliberate, `perflab check --update` rewrites them for review\n",
                 failed_scenarios);
    return kExitFailedRuns;
  }
  for (const auto& [study, t] : tally) {
    std::printf(
        "%s: ok (%zu scenario%s, %zu exact values, %zu paired values within tolerance, %zu claims, %.1f s)\n",
        study.c_str(), t.scenarios, t.scenarios == 1 ? "" : "s", t.exact, t.tolerance, t.claims, t.wall_s);
  }
  if (build.dirty) std::printf("(checked on a tree with uncommitted changes)\n");
  return 0;
}

// `perflab compare A B`: exit 0 when nothing moved, 1 when something did, 2 on bad input.
int cmd_compare(const std::string& a, const std::string& b, const std::vector<std::string>& tolerance_flags,
                const std::string& format, bool all) {
  auto comparison = compare_folders(a, b, tolerance_flags);
  if (!comparison.ok()) return fail_input(comparison.status().message());
  for (const auto& scenario : comparison->scenarios) {
    for (const auto& note : scenario.values.notes)
      std::fprintf(stderr, "perflab: %s: %s\n", scenario.name.c_str(), note.c_str());
  }
  std::cout << render_comparison(*comparison, format, all);
  std::cout.flush();
  return comparison->pass() ? 0 : kExitFailedRuns;
}

}  // namespace perflab
