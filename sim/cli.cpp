// The perflab command line: list, describe, run, merge, reproduce, check. Exit status: 0 success, 1 some runs
// failed, 2 bad input (scenario file, flag, workload file), 130 interrupted.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>

#include "sim/check.h"
#include "sim/compare.h"
#include "sim/journal.h"
#include "sim/outputs.h"
#include "sim/provenance.h"
#include "sim/results_reader.h"
#include "sim/results_readme.h"
#include "sim/results_site.h"
#include "sim/row_codec.h"
#include "sim/runner.h"
#include "sim/scenario.h"
#include "sim/shard.h"
#include "sim/value_format.h"

namespace perflab {
namespace {
namespace fs = std::filesystem;

constexpr int kExitFailedRuns = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;

int fail_input(const std::string& message) {
  std::fprintf(stderr, "perflab: error: %s\n", message.c_str());
  return kExitBadInput;
}

fs::path results_dir() {
  if (const char* env = std::getenv("PERFLAB_RESULTS")) return env;
  return PERFLAB_RESULTS_DIR;
}

std::vector<fs::path> shipped_scenarios() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(scenarios_dir(), ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".toml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// --jobs and --seeds: a whole number >= 1, with the error every other bad input gets.
const CLI::Validator kAtLeastOne(
    [](const std::string& text) -> std::string {
      char* end = nullptr;
      long value = std::strtol(text.c_str(), &end, 10);
      if (!text.empty() && end == text.c_str() + text.size() && value >= 1) return "";
      return "\"" + text + "\" is not valid, expected an integer >= 1";
    },
    "INTEGER>=1");

int default_jobs() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

struct RunFlags {
  std::string scenario;
  std::vector<std::string> sets;
  int seeds = 0;
  int jobs = 0;
  std::string out;
  std::string format = "md";
  std::string point_timeout;
  bool resume = false;
  std::string timeline;
  std::string shard;  // "I/N"
};

// Prints a finished table's summary in the chosen format (run and merge).
void print_summary(const RunTable& table, const std::string& format) {
  if (format == "csv") {
    std::cout << summary_csv(table);
  } else if (format == "json") {
    std::cout << summary_json(table);
  } else {
    std::cout << summary_markdown(table);
  }
  std::cout.flush();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What a run's .meta says of it (its provenance is added when it is written).
ReproducedScenario run_record(const Scenario& scenario, const RunTable& table, double wall_s) {
  std::error_code ec;
  fs::path file = fs::weakly_canonical(scenario.file, ec);
  fs::path shipped = fs::weakly_canonical(scenarios_dir(), ec);
  auto relative = file.lexically_relative(shipped);
  bool inside = !relative.empty() && *relative.begin() != "..";
  size_t runs = 0;
  for (const auto& row : table.rows) runs += row.ran();
  return {scenario.study->name,
          scenario.name,
          inside ? relative.string() : file.string(),
          scenario.description,
          engine_name(scenario.engine),
          scenario.seeds,
          runs,
          wall_s};
}

// The runner's options for a scenario: `jobs` runs at a time (0: a run per core for the sim engine, one at
// a time for the micro engine, whose timings must not share the CPU), progress on a terminal.
RunOptions run_options_for(const Scenario& scenario, int jobs) {
  RunOptions options;
  options.jobs = jobs > 0 ? jobs : (scenario.engine == Engine::kMicro ? 1 : default_jobs());
  options.progress = isatty(STDERR_FILENO) != 0;
  options.point_timeout_s = scenario.point_timeout_s;
  return options;
}

// Runs one loaded scenario and writes its outputs; returns the exit status.
int execute(const Scenario& scenario, const RunFlags& flags, const std::optional<fs::path>& out_dir,
            RunTable* result = nullptr, const std::vector<Override>& overrides = {}) {
  RunOptions options = run_options_for(scenario, flags.jobs);
  options.resume = flags.resume;
  if (!flags.point_timeout.empty()) {
    auto timeout = parse_quantity(flags.point_timeout, Quantity::kDuration);
    if (!timeout.ok())
      return fail_input("--point-timeout " + flags.point_timeout + ": " + timeout.status().message());
    if (*timeout <= 0) return fail_input("--point-timeout must be positive, e.g. --point-timeout 30s");
    options.point_timeout_s = *timeout;
  }
  if (!flags.timeline.empty()) options.timeline = fs::absolute(flags.timeline);
  if (flags.resume && !out_dir) return fail_input("--resume continues an --out run: give the same --out DIR");
  std::optional<Shard> shard;
  if (!flags.shard.empty()) {
    auto parsed = parse_shard_flag(flags.shard);
    if (!parsed.ok()) return fail_input(parsed.status().message());
    if (!out_dir) return fail_input("--shard needs --out DIR: `perflab merge` joins the shards' folders");
    if (options.timeline)
      return fail_input("--shard and --timeline do not go together (a timeline is one run)");
    shard = *parsed;
    options.tasks = shard_tasks(scenario, shard->index, shard->count);
  }
  if (out_dir) {
    std::error_code ec;
    fs::create_directories(*out_dir, ec);
    if (ec) return fail_input(out_dir->string() + ": cannot create the output folder: " + ec.message());
    options.journal = *out_dir / (scenario.name + ".journal");
  }
  auto start = std::chrono::steady_clock::now();
  auto table = run_scenario(scenario, options);
  if (!table.ok()) return fail_input(table.status().message());
  if (out_dir) {
    auto written = write_outputs(*table, *out_dir);
    if (written.ok())
      written = write_run_metadata(*out_dir, run_record(scenario, *table, seconds_since(start)));
    if (!written.ok()) return fail_input(written.message());
    if (shard) {
      shard->scenario_file = fs::absolute(scenario.file);
      shard->overrides = overrides;
      shard->fingerprint = scenario_fingerprint(scenario);
      for (const auto& row : table->rows) {
        if (row.ran()) shard->rows.push_back(row);
      }
      written = write_shard(*out_dir / (scenario.name + ".shard"), *shard);
      if (!written.ok()) return fail_input(written.message());
    }
    std::error_code ec;
    if (!table->interrupted) fs::remove(*options.journal, ec);  // complete: the CSV says it all
  }
  print_summary(*table, flags.format);
  if (result != nullptr) *result = *table;
  if (table->interrupted) {
    std::fprintf(stderr, "perflab: interrupted; finished runs were kept%s\n",
                 out_dir ? " (continue with --resume)" : "");
    return kExitInterrupted;
  }
  if (table->failed() > 0) {
    std::fprintf(stderr, "perflab: %zu of %zu runs failed (see the error column)\n", table->failed(),
                 table->rows.size());
    return kExitFailedRuns;
  }
  return 0;
}

Result<std::vector<Override>> overrides_of(const RunFlags& flags) {
  std::vector<Override> overrides;
  for (const auto& text : flags.sets) {
    auto o = parse_override(text);
    if (!o.ok()) return o.status();
    overrides.push_back(*o);
  }
  if (flags.seeds > 0) overrides.push_back({"scenario.seeds", std::to_string(flags.seeds)});
  return overrides;
}

// "0-99,120,130-139": run indices (ranges inclusive), for `perflab rows --tasks`.
Result<std::vector<size_t>> parse_tasks(const std::string& text) {
  auto bad =
      Status::Error("--tasks \"" + text + "\" is not valid, expected indices and ranges, e.g. 0-99,120");
  auto index = [](const std::string& digits) -> std::optional<size_t> {
    if (digits.empty() || digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return static_cast<size_t>(std::stoull(digits));
  };
  std::vector<size_t> tasks;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto dash = item.find('-');
    auto first = index(item.substr(0, dash));
    auto last = dash == std::string::npos ? first : index(item.substr(dash + 1));
    if (!first || !last || *last < *first) return bad;
    for (size_t t = *first; t <= *last; ++t) tasks.push_back(t);
  }
  if (tasks.empty() || text.back() == ',') return bad;
  return tasks;
}

// perflab rows: the worker side of the Python layer (perflab.run, Dask tasks). Runs some runs of a
// scenario (a file, or TOML text on stdin) and prints each run's row, in the row codec's exact form, the
// moment it ends. A lean process forks its runs far more cheaply than a large Python process would.
int cmd_rows(const RunFlags& flags, const std::string& tasks_text, const std::string& origin,
             const std::string& dir) {
  auto overrides = overrides_of(flags);
  if (!overrides.ok()) return fail_input(overrides.status().message());
  Result<Scenario> scenario = Status::Error("no scenario");
  if (flags.scenario == "-") {
    std::stringstream text;
    text << std::cin.rdbuf();
    scenario = load_scenario_text(text.str(), origin, dir, *overrides);
  } else {
    scenario = load_scenario(flags.scenario, *overrides);
  }
  if (!scenario.ok()) return fail_input(scenario.status().message());
  RunOptions options;
  options.jobs = flags.jobs > 0 ? flags.jobs : 1;
  options.point_timeout_s = scenario->point_timeout_s;
  if (!tasks_text.empty()) {
    auto tasks = parse_tasks(tasks_text);
    if (!tasks.ok()) return fail_input(tasks.status().message());
    options.tasks = std::move(tasks).value();
  }
  options.on_row = [](const RunRow& row) {
    std::fputs(encode_row(row).c_str(), stdout);
    std::fflush(stdout);
  };
  auto table = run_scenario(*scenario, options);
  if (!table.ok()) return fail_input(table.status().message());
  return table->interrupted ? kExitInterrupted : 0;
}

// perflab merge DIR… --out OUT: every *.shard in the folders, one scenario, all N shards.
int cmd_merge(const std::vector<std::string>& dirs, const std::string& out, const std::string& format) {
  std::vector<fs::path> files;
  for (const auto& dir : dirs) {
    std::error_code ec;
    size_t before = files.size();
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().extension() == ".shard") files.push_back(entry.path());
    }
    if (ec) return fail_input(dir + ": cannot read the folder: " + ec.message());
    if (files.size() == before)
      return fail_input(
          dir + ": no shard (*.shard) here, expected the --out folder of a `perflab run --shard I/N`");
  }
  std::sort(files.begin(), files.end());
  std::vector<Shard> shards;
  for (const auto& file : files) {
    auto shard = read_shard(file);
    if (!shard.ok()) return fail_input(shard.status().message());
    shards.push_back(std::move(shard).value());
  }
  auto scenario = load_scenario(shards.front().scenario_file, shards.front().overrides);
  if (!scenario.ok())
    return fail_input(files.front().string() + ": its scenario: " + scenario.status().message());
  auto table = merge_shards(*scenario, shards, files);
  if (!table.ok()) return fail_input(table.status().message());
  auto written = write_outputs(*table, out);
  if (written.ok()) written = write_run_metadata(out, run_record(*scenario, *table, 0));
  if (!written.ok()) return fail_input(written.message());
  print_summary(*table, format);
  std::fprintf(stderr, "perflab: merged %zu shards of %s into %s\n", shards.size(), scenario->name.c_str(),
               out.c_str());
  return table->failed() > 0 ? kExitFailedRuns : 0;
}

int cmd_list() {
  for (const auto& file : shipped_scenarios()) {
    auto scenario = load_scenario(file, {});
    auto relative = fs::relative(file, scenarios_dir());
    if (!scenario.ok()) {
      std::printf("%-36s  (invalid: %s)\n", relative.c_str(), scenario.status().message().c_str());
      continue;
    }
    std::printf("%-36s  %-10s %-5s %s%s\n", relative.c_str(), scenario->study->name.c_str(),
                engine_name(scenario->engine), scenario->headline ? "[headline] " : "",
                scenario->description.c_str());
  }
  return 0;
}

int cmd_describe(const std::string& name) {
  auto named = study_named(name);
  if (!named.ok()) return fail_input(named.status().message());
  const Study* study = *named;
  std::printf("Study %s: %s\n\nEngines: %s%s\n\nParameters ([params], [sweep] or [[case]]):\n",
              study->name.c_str(), study->description.c_str(), study->run_sim ? "sim " : "",
              study->setup_micro ? "micro" : "");
  for (const auto& p : study->params) {
    std::string type = type_name(p.type);
    if (p.type == ParamType::kChoice) {
      type += " (" + join(p.choices, "|") + ")";
    }
    std::printf("  %-24s %-28s default %s\n  %24s %s\n", p.name.c_str(), type.c_str(),
                p.default_value.empty() ? "(required)" : p.default_value.c_str(), "", p.meaning.c_str());
  }
  if (study->run_sim) {
    std::printf("\nMetrics of the sim engine (CSV columns):\n");
    for (const auto& m : study->metrics) std::printf("  %-24s %s\n", m.name.c_str(), m.meaning.c_str());
  }
  if (study->setup_micro) {
    std::printf("\nMetrics of the micro engine (CSV columns):\n");
    for (const auto& m : study->metrics_for(Engine::kMicro))
      std::printf("  %-24s %s\n", m.name.c_str(), m.meaning.c_str());
  }
  return 0;
}

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

// A line naming how this build differs from the one that made `csv`'s results (compiler, SimGrid), or "".
std::string build_difference(const fs::path& csv) {
  auto meta = read_meta(fs::path(csv).replace_extension(".meta"));
  const Provenance& now = current_provenance();
  std::vector<std::string> differences;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"compiler", now.compiler}, {"simgrid", now.simgrid}}) {
    if (meta.count(key) != 0 && meta[key] != value)
      differences.push_back(key + " " + meta[key] + " (committed) vs " + value + " (this build)");
  }
  if (differences.empty()) return "";
  return csv.filename().string() + " came from another build: " + join(differences, "; ") +
         ": floating-point results may differ in the last digits; `--tolerance` widens the gate";
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
  std::cout << render_comparison(*comparison, format, all);
  std::cout.flush();
  return comparison->pass() ? 0 : kExitFailedRuns;
}

}  // namespace

int cli_main(int argc, char** argv) {
  set_command_line(argc, argv);
  CLI::App app{
      "perflab: runs real implementations of famous performance fixes against simulated networks with\n"
      "injected random latency (and on the real CPU), sweeps their knobs and prints the tables.\n"
      "Scenarios are TOML files (see `perflab list`, `perflab describe STUDY`)."};
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "List the shipped scenarios, one line each");
  std::string describe_name;
  auto* describe =
      app.add_subcommand("describe", "Show a study's parameters (type, default, meaning) and metrics");
  describe->add_option("STUDY", describe_name, "Study name")->required();

  RunFlags flags;
  auto* run = app.add_subcommand("run", "Run a scenario: every grid point x seed, each in its own process");
  run->add_option("SCENARIO", flags.scenario, "Scenario file (.toml)")->required();
  run->add_option("--set", flags.sets,
                  "Override any key with a TOML value: --set params.prune_threshold=2, "
                  "--set 'sweep.prefetch_depth=[0,1,500]', --set 'network.latency=\"constant(50ms)\"'")
      ->allow_extra_args(false);
  run->add_option("--seeds", flags.seeds, "Replications per grid point (overrides [scenario] seeds)")
      ->check(kAtLeastOne);
  run->add_option("--jobs", flags.jobs, "Runs in parallel (default: cores for sim, 1 for micro)")
      ->check(kAtLeastOne);
  run->add_option("--out", flags.out, "Write DIR/<name>.csv, .summary.csv and .md");
  run->add_option("--format", flags.format, "Summary printed on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  run->add_option("--point-timeout", flags.point_timeout,
                  "Wall limit per run, e.g. 30s; a run over it fails");
  run->add_flag("--resume", flags.resume, "Continue an interrupted --out run without redoing finished rows");
  run->add_option("--timeline", flags.timeline, "Write a Chrome trace (Perfetto) of a single-point run");
  run->add_option("--shard", flags.shard,
                  "Run only shard I of N (every N-th run, e.g. 3/100, for array jobs); needs --out, and "
                  "`perflab merge` joins the shards' folders");

  std::string rows_tasks;
  std::string rows_origin = "<stdin>";
  std::string rows_dir = ".";
  auto* rows = app.add_subcommand(
      "rows",
      "(For the Python layer) run some runs of a scenario, print each run's row on stdout as it ends");
  rows->group("");  // not listed in --help: an interface between perflab's own parts
  rows->add_option("SCENARIO", flags.scenario, "Scenario file, or - for TOML text on stdin")->required();
  rows->add_option("--set", flags.sets, "Overrides, as for run")->allow_extra_args(false);
  rows->add_option("--tasks", rows_tasks, "Run indices (point x seeds + replication), e.g. 0-99,120");
  rows->add_option("--jobs", flags.jobs, "Runs in parallel")->check(kAtLeastOne);
  rows->add_option("--origin", rows_origin, "The name of stdin's scenario in error messages");
  rows->add_option("--dir", rows_dir, "Where stdin's scenario's relative paths start");

  std::vector<std::string> merge_dirs;
  std::string merge_out;
  std::string merge_format = "md";
  auto* merge = app.add_subcommand(
      "merge",
      "Join the --out folders of `perflab run … --shard I/N` into the files one unsharded run writes");
  merge->add_option("DIR", merge_dirs, "Shard output folders (each holds a <name>.shard)")->required();
  merge->add_option("--out", merge_out, "Write OUT/<name>.csv, .summary.csv and .md")->required();
  merge->add_option("--format", merge_format, "Summary printed on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));

  std::vector<std::string> studies;
  int study_jobs = 0;
  bool full = false;
  auto* reproduce = app.add_subcommand(
      "reproduce",
      "Run the headline scenarios, write results/<study>/ and results/README.md, print the tables and the "
      "time each scenario took");
  reproduce->add_option("STUDY", studies, "Only these studies (default: all)");
  reproduce->add_option("--jobs", study_jobs, "Runs in parallel (default: cores)")->check(kAtLeastOne);
  bool readme_only = false;
  reproduce->add_flag(
      "--readme-only", readme_only,
      "Run nothing: rebuild results/README.md from the results on disk (scripts/reproduce calls "
      "it after drawing the plots, so new pictures are shown)");
  reproduce->add_flag("--full", full,
                      "Also the slow headline scenarios (minutes of real CPU: calibrations, the largest "
                      "quadratic cases)");

  bool quick = false;
  bool update = false;
  std::vector<std::string> tolerances;
  auto* check = app.add_subcommand(
      "check",
      "The regression gate: rerun the headline scenarios and pair them seed by seed with the committed "
      "results/ (exact counts equal, simulated times within a relative 1e-9, the studies' claims on "
      "micro-engine timings); exit 1 with a table of what moved");
  check->add_option("STUDY", studies, "Only these studies (default: all)");
  check->add_option("--jobs", study_jobs, "Runs in parallel (default: cores)")->check(kAtLeastOne);
  check->add_flag("--quick", quick,
                  "Each scenario's [quick] variant: fewer seeds and sizes (about a minute)");
  check->add_flag("--full", full, "Also the slow headline scenarios");
  check
      ->add_option("--tolerance", tolerances,
                   "Relative tolerance of simulated times, for every metric (--tolerance 1e-6) or one "
                   "(--tolerance duration_s=1e-6); default 1e-9 or the scenario's [check] table")
      ->allow_extra_args(false);
  check->add_flag("--update", update,
                  "Rewrite the committed results instead (what `reproduce` does), for a deliberate change: "
                  "review the diff and commit it");

  std::vector<std::string> compare_dirs;
  std::string compare_format = "md";
  bool compare_all = false;
  auto* compare = app.add_subcommand(
      "compare",
      "Compare two result folders of the same scenarios (two --out folders, or main's results/ and a "
      "branch's) point by point and seed by seed, by check's rules: A, B, change, verdict; exit 1 when "
      "anything moved beyond its tolerance");
  compare->add_option("A_B", compare_dirs, "Two folders: A, the baseline, then B, compared with it")
      ->required()
      ->expected(2);
  compare->add_option("--format", compare_format, "md (default), csv or json")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  compare->add_option("--tolerance", tolerances, "As for check: 1e-6, or METRIC=1e-6")
      ->allow_extra_args(false);
  compare->add_flag("--all", compare_all, "List unchanged point × metric cells too (markdown)");

  std::vector<std::string> commands;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    commands.push_back(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' &&
      std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
    return fail_input(
        std::string("unknown command \"") + argv[1] +
        "\", expected one of list, describe, run, merge, reproduce, check, compare (see perflab "
        "--help)");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "perflab: error: %s\nRun with --help for usage.\n", e.what());
    return kExitBadInput;
  }

  if (*list) return cmd_list();
  if (*describe) return cmd_describe(describe_name);
  if (*reproduce && readme_only) {
    auto readme = write_results_readme(results_dir());
    if (!readme.ok()) return fail_input(readme.message());
    return 0;
  }
  if (*reproduce) return cmd_reproduce(studies, study_jobs, full);
  if (*check && update) return cmd_reproduce(studies, study_jobs, full);
  if (*check) {
    int status = cmd_check(studies, study_jobs, quick, full, tolerances);
    if (studies.empty()) {  // the whole gate: its verdict is the one the results site shows
      auto record = write_check_record(results_dir(), status, quick, full);
      if (!record.ok()) std::fprintf(stderr, "perflab: warning: %s\n", record.message().c_str());
    }
    return status;
  }
  if (*compare) return cmd_compare(compare_dirs[0], compare_dirs[1], tolerances, compare_format, compare_all);
  if (*merge) return cmd_merge(merge_dirs, merge_out, merge_format);
  if (*rows) return cmd_rows(flags, rows_tasks, rows_origin, rows_dir);
  auto overrides = overrides_of(flags);
  if (!overrides.ok()) return fail_input(overrides.status().message());
  auto scenario = load_scenario(flags.scenario, *overrides);
  if (!scenario.ok()) return fail_input(scenario.status().message());
  std::optional<fs::path> out;
  if (!flags.out.empty()) out = fs::path(flags.out);
  return execute(*scenario, flags, out, nullptr, *overrides);
}

}  // namespace perflab
