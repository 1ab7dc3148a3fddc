// The commands of the regression gate: reproduce (the headline scenarios into a reproduction folder, or
// over results/ with --update), check (rerun them and pair them seed by seed with results/) and compare
// (two result folders). See commands.h.
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "sim/cli/commands.h"
#include "sim/gate/check.h"
#include "sim/gate/compare.h"
#include "sim/gate/provenance.h"
#include "sim/gate/results_reader.h"
#include "sim/report/python_renderer.h"
#include "sim/scenario/source_tree.h"
#include "sim/text/value_format.h"

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

// The headline scenarios of the requested studies, or the named ones (a shipped scenario's name as `perflab
// list` prints it; all studies if none), in file order; slow ones only with `full` unless named.
Result<std::vector<Scenario>> headline_scenarios(const std::vector<std::string>& names, bool full) {
  std::vector<std::string> studies;
  std::vector<fs::path> named_files;
  for (const auto& name : names) {
    if (study_named(name).ok()) {
      studies.push_back(name);
      continue;
    }
    auto file = find_scenario_file(name);
    if (!file.ok()) return study_named(name).status().with_context(file.status().message() + "; ");
    named_files.push_back(fs::weakly_canonical(*file));
  }
  std::vector<Scenario> scenarios;
  for (const auto& file : shipped_scenarios()) {
    auto scenario = load_scenario(file, {});
    if (!scenario.ok()) return scenario.status();
    const auto& study_name = scenario->study->name;
    bool named =
        std::find(named_files.begin(), named_files.end(), fs::weakly_canonical(file)) != named_files.end();
    if (named && !scenario->headline) {
      return Status::Error(file.string() +
                           ": not a headline scenario, so results/ holds no rows to check it "
                           "against; `perflab compare` compares two --out folders");
    }
    bool by_study = std::find(studies.begin(), studies.end(), study_name) != studies.end();
    if (!names.empty() && !named && !by_study) continue;
    if (!scenario->headline || (scenario->slow && !full && !named)) continue;
    scenarios.push_back(std::move(scenario).value());
  }
  for (const auto& file : named_files) {
    auto shipped = shipped_scenarios();
    if (std::none_of(shipped.begin(), shipped.end(),
                     [&](const fs::path& f) { return fs::weakly_canonical(f) == file; }))
      return Status::Error(file.string() +
                           ": not a shipped scenario; `perflab check` checks the headline "
                           "scenarios under " +
                           scenarios_dir().string());
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

fs::path reproduction_dir(const ReproduceFlags& flags) {
  if (flags.update) return results_dir();
  if (!flags.out.empty()) return flags.out;
  return source_dir() / "out" / "reproduce";
}

namespace {

// Removes `dir`'s files of scenario `name` (<name>.csv, .meta, .png, ...), so a folder holds only what
// the latest run of it wrote.
void remove_scenario_files(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().filename().string().rfind(name + ".", 0) == 0) fs::remove(entry.path(), ec);
  }
}

// `reproduce --update`: what the fresh runs in `fresh` move against `committed` (the results/ they are
// about to replace), per study, by check's rules; printed for the maintainer to review the diff with.
void print_moves(const fs::path& committed, const fs::path& fresh, const std::vector<std::string>& studies,
                 const std::vector<std::string>& tolerance_flags) {
  std::cout << "\n## Against the committed results/ they replace\n";
  for (const auto& study : studies) {
    if (!fs::exists(committed / study)) {
      std::cout << "\n" << study << ": new (nothing committed before)\n";
      continue;
    }
    auto comparison =
        compare_folders(committed / study, fresh / study, CompareOptions{tolerance_flags, false, ""});
    std::cout << "\n";
    if (!comparison.ok()) {
      std::cout << study << ": not compared: " << comparison.status().message() << "\n";
      continue;
    }
    FolderComparison moves = *comparison;
    moves.only_in_a.clear();  // scenarios not rerun this time (slow ones without --full) stay as they are
    std::cout << render_comparison(moves, "md", false);
  }
}

// A new empty folder under the system's temporary folder.
Result<fs::path> make_scratch_dir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr)
    return Status::Error(pattern + ": cannot create a scratch folder: " + std::strerror(errno));
  return fs::path(pattern);
}

// Copies `from`'s files of scenario `name` over `to`'s (whose old ones go first).
Status replace_scenario_files(const fs::path& from, const fs::path& to, const std::string& name) {
  std::error_code ec;
  fs::create_directories(to, ec);
  remove_scenario_files(to, name);
  for (const auto& entry : fs::directory_iterator(from, ec)) {
    if (entry.path().filename().string().rfind(name + ".", 0) != 0) continue;
    fs::copy_file(entry.path(), to / entry.path().filename(), fs::copy_options::overwrite_existing, ec);
    if (ec)
      return Status::Error(entry.path().string() + ": cannot copy to " + to.string() + ": " + ec.message());
  }
  return Status::OK();
}

// The folder's figures, README.md and site, from what is on disk there, by the one renderer; it prints the
// reports of the scenarios named in `print` (what a reproduction shows beside the seed's numbers).
int render_folder(const fs::path& folder, const std::vector<std::string>& print = {}) {
  auto rendered = render_results(folder, print);
  if (!rendered.ok()) return fail_input(rendered.message());
  std::fprintf(stderr, "perflab: wrote %s; open %s\n", (folder / "README.md").c_str(),
               (folder / "index.html").c_str());
  return 0;
}

}  // namespace

int cmd_reproduce(const ReproduceFlags& flags) {
  const fs::path folder = reproduction_dir(flags);
  if (flags.readme_only) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      return fail_input("--readme-only renders the results already in a folder, and " + folder.string() +
                        " is none (run `perflab reproduce --out " + folder.string() + "` first)");
    }
  }
  if (auto writable = check_writable(folder, true, "--out"); !writable.ok())
    return fail_input(writable.message());
  if (flags.readme_only) return render_folder(folder);
  auto scenarios = headline_scenarios(flags.studies, flags.full);
  if (!scenarios.ok()) return fail_input(scenarios.status().message());
  // --update runs into a scratch folder first, so results/ changes only once every run has finished.
  fs::path runs_dir = folder;
  if (flags.update) {
    auto scratch = make_scratch_dir("perflab-update");
    if (!scratch.ok()) return fail_input(scratch.status().message());
    runs_dir = *scratch;
  }
  int status = 0;
  std::vector<ReproducedScenario> timings;
  std::vector<std::string> studies;
  std::vector<std::string> reproduced;  // the scenarios whose reports the renderer prints at the end
  for (const auto& scenario : *scenarios) {
    std::fprintf(stderr, "perflab: reproducing %s (%s)\n", scenario.name.c_str(), scenario.file.c_str());
    RunFlags run_flags;
    run_flags.jobs = flags.jobs;
    run_flags.format = "none";  // the renderer prints each scenario's report once every run has ended
    RunTable table;
    fs::path out = runs_dir / scenario.study->name;
    remove_scenario_files(out, scenario.name);
    auto start = std::chrono::steady_clock::now();
    int s = execute(scenario, run_flags, out, &table);
    double wall_s = seconds_since(start);
    if (is_interrupted_exit(s) || s == kExitBadInput) return s;
    if (s == kExitFailedRuns && only_capped_failures(scenario, table)) {
      std::fprintf(
          stderr,
          "perflab: the failed runs all hit the scenario's own [scenario] point_timeout, which it "
          "sets for runs it expects to be slow; reported in the table, not a reproduction failure\n");
      s = 0;
    }
    status = std::max(status, s);
    reproduced.push_back(scenario.name);
    timings.push_back(run_record(scenario, table, wall_s));
    if (std::find(studies.begin(), studies.end(), scenario.study->name) == studies.end())
      studies.push_back(scenario.study->name);
  }
  std::cout << "\n" << timing_table(timings);
  if (flags.update) {
    print_moves(folder, runs_dir, studies, flags.tolerances);
    std::cout.flush();
    if (status != 0) {
      std::fprintf(stderr, "perflab: some runs failed: %s left as it was (the fresh runs are in %s)\n",
                   folder.c_str(), runs_dir.c_str());
      return std::max(status, render_folder(runs_dir, reproduced));
    }
    for (const auto& scenario : *scenarios) {
      auto copied = replace_scenario_files(runs_dir / scenario.study->name, folder / scenario.study->name,
                                           scenario.name);
      if (!copied.ok()) return fail_input(copied.message());
    }
    std::error_code ec;
    fs::remove_all(runs_dir, ec);
  }
  std::cout.flush();
  return std::max(status, render_folder(folder, reproduced));
}

// `perflab check`: reruns each headline scenario (its [quick] variant with --quick) and pairs it, seed by
// seed, with the committed results (sim/gate/check.h); prints a table of what moved and exits 1, or one line
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
    if (fresh->interrupted) return say_interrupted("check " + scenario->name, fresh->interrupted, "");
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

// `perflab compare A B`: exit 0 when nothing moved, 1 when something did (or, with --require-all, rows are
// missing), 2 on bad input. A or B may also be a scenario's name as `perflab list` prints it: its committed
// results (results/<study>/), that scenario only.
int cmd_compare(const std::string& a, const std::string& b, CompareOptions options, const std::string& format,
                bool all) {
  std::error_code ec;
  auto folder_of = [&](const std::string& name) -> Result<fs::path> {
    if (fs::is_directory(name, ec) || !find_scenario_file(name).ok()) return fs::path(name);
    auto scenario = load_scenario(name, {});
    if (!scenario.ok()) return scenario.status();
    options.only = scenario->name;
    return results_dir() / scenario->study->name;
  };
  auto a_folder = folder_of(a);
  if (!a_folder.ok()) return fail_input(a_folder.status().message());
  auto b_folder = folder_of(b);
  if (!b_folder.ok()) return fail_input(b_folder.status().message());
  auto comparison = compare_folders(*a_folder, *b_folder, options);
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
