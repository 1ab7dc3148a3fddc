// The perflab commands, one function each, and what they share; sim/cli/cli.cpp wires the command line
// (CLI11) to them. Exit status: 0 success, 1 some runs failed (check, compare: something moved), 2 bad input
// (scenario file, flag, workload file), 130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM: 128 + the signal,
// as a shell reports a process the signal killed.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/gate/compare.h"
#include "sim/report/run_metadata.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace perflab {

constexpr int kExitFailedRuns = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;  // 128 + SIGINT
constexpr int kExitTerminated = 143;   // 128 + SIGTERM
// The exit status of a command stopped by `signal` (SIGINT or SIGTERM): 130 or 143.
inline int interrupted_exit(int signal) {
  return 128 + signal;
}
inline bool is_interrupted_exit(int status) {
  return status == kExitInterrupted || status == kExitTerminated;
}
// --jobs above the cores is capped at this many runs per core (a run is one CPU-bound child process).
constexpr int kJobsPerCore = 4;

// Prints "perflab: error: <message>" and returns kExitBadInput.
int fail_input(const std::string& message);
// Whether `path` (a folder when `folder`, else a file) can be written, without creating anything; `flag`
// names the option in the error.
Status check_writable(const std::filesystem::path& path, bool folder, const std::string& flag);
// Prints "perflab: <what>: interrupted (Ctrl-C|SIGTERM)<consequence>" and returns 128 + signal.
int say_interrupted(const std::string& what, int signal, const std::string& consequence);
std::filesystem::path results_dir();                     // $PERFLAB_RESULTS, else the checkout's results/
std::vector<std::filesystem::path> shipped_scenarios();  // every .toml under scenarios_dir(), sorted

struct RunFlags {
  std::string scenario;
  std::vector<std::string> sets;
  std::vector<std::string> cases;  // --case NAME: only these [[case]]s
  int seeds = 0;
  int jobs = 0;
  std::string out;
  std::string format = "md";
  std::string point_timeout;
  bool resume = false;
  std::string timeline;
  std::string shard;      // "I/N"
  std::string scheduler;  // a Dask scheduler's address: the runs go to its cluster (sim/runner/dask_runner.h)
};

// run_commands.cpp
int cmd_run(const RunFlags& flags);
int cmd_rows(const RunFlags& flags, const std::string& tasks_text, const std::string& origin,
             const std::string& dir);
int cmd_merge(const std::vector<std::string>& dirs, const std::string& out, const std::string& format);
// The runner's options for a scenario: `jobs` runs at a time (0: a run per core for the sim engine, one at
// a time for the micro and real engines, whose timings must not share the CPU), progress on a terminal.
RunOptions run_options_for(const Scenario& scenario, int jobs);
// Runs one loaded scenario and writes its outputs to out_dir (if given); returns the exit status.
int execute(const Scenario& scenario, const RunFlags& flags,
            const std::optional<std::filesystem::path>& out_dir, RunTable* result = nullptr,
            const std::vector<Override>& overrides = {});
double seconds_since(std::chrono::steady_clock::time_point start);
// What a run's .meta says of it (its provenance is added when it is written).
ReproducedScenario run_record(const Scenario& scenario, const RunTable& table, double wall_s);

// catalog_commands.cpp
int cmd_list();
int cmd_describe(const std::string& name);

// gate_commands.cpp
struct ReproduceFlags {
  std::vector<std::string> studies;  // empty: every study
  int jobs = 0;
  bool full = false;         // also the slow headline scenarios
  bool update = false;       // rewrite results_dir() (the maintainer's step), after comparing with it
  std::string out;           // the reproduction's folder (default: out/reproduce/ of the checkout)
  bool readme_only = false;  // run nothing: redraw the folder's plots, README.md and site
  std::vector<std::string> tolerances;  // --update's comparison, as for check
};
// Where `reproduce` writes: results_dir() with --update, else --out, else <checkout>/out/reproduce.
std::filesystem::path reproduction_dir(const ReproduceFlags& flags);
int cmd_reproduce(const ReproduceFlags& flags);
int cmd_check(const std::vector<std::string>& studies, int jobs, bool quick, bool full,
              const std::vector<std::string>& tolerance_flags);
int cmd_compare(const std::string& a, const std::string& b, CompareOptions options, const std::string& format,
                bool all);

// validate_command.cpp: sim against real on each study's scenarios/<study>/validate.toml; exit 1 when a
// criterion of its [validate] table fails or a run failed.
int cmd_validate(const std::vector<std::string>& studies, bool quick, const std::vector<std::string>& sets,
                 const std::string& out);
int cmd_calibrate(const std::vector<std::string>& studies, const std::string& out, int windows, int gap_s);
// One window of `study`'s calibration, as `perflab calibrate STUDY` makes it (printed; written to
// out/<scenario>.calibration.{toml,csv} unless `out` is empty), for validate's [validate]
// calibrate_in_window; its constants, or an error with `status`.
Result<std::vector<CalibratedConstant>> calibrate_in_this_window(const std::string& study,
                                                                 const std::filesystem::path& out,
                                                                 int& status);

// history_command.cpp: each study's headline figure at every commit that changed it (STUDY: only these)
// -> results/history.csv and history.html, steps and change points marked; 2 outside a git checkout.
// `perflab history [STUDY...] [--repo DIR] [--out DIR]` (sim/cli/history_command.cpp).
int cmd_history(const std::vector<std::string>& studies, const std::string& repo, const std::string& out);

}  // namespace perflab
