// The commands that run scenarios: run (one scenario, optionally one shard of it), rows (the Python
// layer's worker) and merge (shards back into one run's files). See commands.h.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

#include "models/common/printable.h"
#include "sim/cli/commands.h"
#include "sim/engines/timeline.h"
#include "sim/runner/dask_runner.h"
#include "sim/runner/journal.h"
#include "sim/runner/row_codec.h"
#include "sim/runner/run_outputs.h"
#include "sim/runner/shard.h"
#include "sim/scenario/source_tree.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

// Prints a finished table's summary in the chosen format (run and merge).
void print_summary(const RunTable& table, const std::string& format) {
  if (format == "csv") {
    std::cout << summary_csv(table);
  } else if (format == "json") {
    std::cout << summary_json(table);
  } else if (format != "none") {  // "none": reproduce, whose renderer prints the reports
    std::cout << summary_markdown(table);
  }
  std::cout.flush();
}

// "0-99,120,130-139": run indices (ranges inclusive, ascending), for `perflab rows --tasks`.
Result<TaskSelection> parse_tasks(const std::string& text) {
  auto bad = Status::Error("--tasks \"" + text +
                           "\" is not valid, expected ascending indices and ranges, e.g. 0-99,120");
  auto index = [](const std::string& digits) -> std::optional<size_t> {
    if (digits.empty() || digits.size() > 15 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return static_cast<size_t>(std::stoull(digits));
  };
  TaskSelection tasks;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto dash = item.find('-');
    auto first = index(item.substr(0, dash));
    auto last = dash == std::string::npos ? first : index(item.substr(dash + 1));
    if (!first || !last || *last < *first) return bad;
    if (!tasks.ranges.empty() && *first <= tasks.ranges.back().second) return bad;
    tasks.ranges.emplace_back(*first, *last);
  }
  if (tasks.ranges.empty() || text.back() == ',') return bad;
  return tasks;
}

int default_jobs() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace

// Whether `path` (a folder when `folder`, else a file) can be written, without creating anything: it is
// writable if it exists, else the nearest folder above it that exists is. `flag` names the option.
Status check_writable(const fs::path& path, bool folder, const std::string& flag) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  auto bad = [&](const std::string& why) { return Status::Error(flag + " " + path.string() + ": " + why); };
  if (fs::exists(absolute, ec)) {
    if (folder && !fs::is_directory(absolute, ec)) return bad("is a file, expected a folder");
    if (!folder && fs::is_directory(absolute, ec)) return bad("is a folder, expected a file name");
    if (access(absolute.c_str(), W_OK) != 0) return bad(std::string("cannot be written: ") + strerror(errno));
    return Status::OK();
  }
  fs::path above = absolute.parent_path();
  while (!above.empty() && !fs::exists(above, ec) && above != above.parent_path())
    above = above.parent_path();
  if (!fs::is_directory(above, ec)) return bad(above.string() + " is not a folder");
  if (access(above.c_str(), W_OK | X_OK) != 0)
    return bad("cannot be created in " + above.string() + ": " + strerror(errno));
  return Status::OK();
}

int fail_input(const std::string& message) {
  // printable(): whatever a bad input file put in the message, no raw bytes reach the terminal.
  std::fprintf(stderr, "perflab: error: %s\n", printable(message, message.size() + 1, true).c_str());
  return kExitBadInput;
}

int say_interrupted(const std::string& what, int signal, const std::string& consequence) {
  std::fprintf(stderr, "perflab: %s: interrupted (%s)%s\n", what.c_str(),
               signal == SIGTERM ? "SIGTERM" : "Ctrl-C", consequence.c_str());
  return interrupted_exit(signal);
}

fs::path results_dir() {
  if (const char* env = std::getenv("PERFLAB_RESULTS")) return env;
  return source_dir() / "results";
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
  return {scenario.study->name,
          scenario.name,
          inside ? relative.string() : file.string(),
          scenario.description,
          engine_name(scenario.engine),
          scenario.seeds,
          table.ran(),
          table.planned_runs(),
          table.interrupted != 0,
          wall_s,
          std::nullopt,
          std::nullopt,
          scenario.study->uses ? scenario.study->uses(scenario.engine) : std::vector<std::string>{}};
}

// The runner's options for a scenario: `jobs` runs at a time (0: a run per core for the sim engine, one at
// a time for the micro and real engines, whose timings must not share the CPU), progress on a terminal.
RunOptions run_options_for(const Scenario& scenario, int jobs) {
  RunOptions options;
  options.jobs = jobs > 0 ? jobs : (scenario.engine == Engine::kSim ? default_jobs() : 1);
  int cores = default_jobs();
  if (options.jobs > cores) {
    int capped = std::min(options.jobs, kJobsPerCore * cores);
    std::fprintf(
        stderr,
        "perflab: warning: --jobs %d is more than the %d cores: runs beyond them only wait for the CPU "
        "(and a micro-engine timing shares it); running %d at a time (at most %d per core)\n",
        options.jobs, cores, capped, kJobsPerCore);
    options.jobs = capped;
  }
  options.progress = isatty(STDERR_FILENO) != 0;
  options.point_timeout_s = scenario.point_timeout_s;
  return options;
}

// Runs one loaded scenario and writes its outputs; returns the exit status.
int execute(const Scenario& scenario, const RunFlags& flags, const std::optional<fs::path>& out_dir,
            RunTable* result, const std::vector<Override>& overrides) {
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
  if (!flags.scheduler.empty() && (flags.resume || !flags.shard.empty() || options.timeline ||
                                   flags.jobs > 0 || !flags.point_timeout.empty()))
    return fail_input(
        "--scheduler runs the whole sweep on the Dask cluster: it does not go with --resume, --shard, "
        "--timeline, --jobs (the workers set the parallelism) or --point-timeout (set "
        "scenario.point_timeout with --set)");
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
    auto writable = check_writable(*out_dir, true, "--out");
    if (writable.ok()) writable = check_output_files(scenario, *out_dir);
    if (!writable.ok()) return fail_input(writable.message());
    options.journal = *out_dir / (scenario.name + ".journal");  // created once the inputs are checked
  }
  if (options.timeline && scenario.engine == Engine::kMicro) {
    return fail_input(
        std::string("--timeline: the micro engine keeps no timeline (it times whole repetitions); ") +
        kEnginesWithATimeline);
  }
  if (options.timeline) {
    auto writable = check_writable(*options.timeline, false, "--timeline");
    if (!writable.ok()) return fail_input(writable.message());
  }
  // How much there is to do, before anything starts (a large sweep takes a while to show progress).
  size_t runs = scenario.grid.size() * static_cast<size_t>(scenario.seeds);
  const std::string of_all = shard ? " of the " + std::to_string(runs) : "";
  std::fprintf(stderr, "perflab: %s: %zu%s runs (%zu grid points x %d seeds)%s\n", scenario.name.c_str(),
               options.tasks ? options.tasks->count() : runs, of_all.c_str(), scenario.grid.size(),
               scenario.seeds, shard ? (", shard " + flags.shard).c_str() : "");
  std::optional<MachineLoad> load_before;
  if (out_dir && scenario.engine == Engine::kMicro) load_before = measure_machine_load();
  auto start = std::chrono::steady_clock::now();
  auto table = flags.scheduler.empty() ? run_scenario(scenario, options)
                                       : run_on_dask(scenario, flags.scheduler, overrides);
  if (!table.ok()) return fail_input(table.status().message());  // nothing was written: inputs come first
  if (out_dir) {
    auto written = write_outputs(*table, *out_dir);
    ReproducedScenario record = run_record(scenario, *table, seconds_since(start));
    if (load_before) {
      record.load_before = load_before;
      record.load_after = measure_machine_load();
    }
    if (written.ok()) written = write_run_metadata(*out_dir, record);
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
    std::fprintf(stderr, "perflab: interrupted: %s; finished runs were kept%s\n",
                 interrupted_text(table->ran(), table->planned_runs()).c_str(),
                 out_dir ? " (continue with --resume)" : "");
    return interrupted_exit(table->interrupted);
  }
  if (table->failed() > 0) {
    std::fprintf(stderr, "perflab: %zu of %zu runs failed (see the error column)\n", table->failed(),
                 table->planned_runs());
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
  for (const auto& name : flags.cases) overrides.push_back({kCaseKey, name});
  if (flags.seeds > 0) overrides.push_back({"scenario.seeds", std::to_string(flags.seeds)});
  return overrides;
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
  RunOptions options = run_options_for(*scenario, flags.jobs > 0 ? flags.jobs : 1);
  options.progress = false;  // stdout carries the rows; the caller shows progress
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
  return table->interrupted ? interrupted_exit(table->interrupted) : 0;
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

int cmd_run(const RunFlags& flags) {
  auto overrides = overrides_of(flags);
  if (!overrides.ok()) return fail_input(overrides.status().message());
  auto scenario = load_scenario(flags.scenario, *overrides);
  if (!scenario.ok()) return fail_input(scenario.status().message());
  std::optional<fs::path> out;
  if (!flags.out.empty()) out = fs::path(flags.out);
  return execute(*scenario, flags, out, nullptr, *overrides);
}

}  // namespace perflab
