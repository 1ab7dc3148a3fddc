// The perflab commands, one function each, and what they share; sim/cli.cpp wires the command line
// (CLI11) to them. Exit status: 0 success, 1 some runs failed (check, compare: something moved), 2 bad input
// (scenario file, flag, workload file), 130 interrupted.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/capture.h"
#include "sim/results_readme.h"
#include "sim/runner.h"
#include "sim/scenario.h"

namespace perflab {

constexpr int kExitFailedRuns = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;

// Prints "perflab: error: <message>" and returns kExitBadInput.
int fail_input(const std::string& message);
std::filesystem::path results_dir();                     // $PERFLAB_RESULTS, else the checkout's results/
std::vector<std::filesystem::path> shipped_scenarios();  // every .toml under scenarios_dir(), sorted

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

// run_commands.cpp
int cmd_run(const RunFlags& flags);
int cmd_rows(const RunFlags& flags, const std::string& tasks_text, const std::string& origin,
             const std::string& dir);
int cmd_merge(const std::vector<std::string>& dirs, const std::string& out, const std::string& format);
// The runner's options for a scenario: `jobs` runs at a time (0: a run per core for the sim engine, one at
// a time for the micro engine, whose timings must not share the CPU), progress on a terminal.
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

// capture: defined with their studies (scenarios/prefetch/capture_command.cpp,
// scenarios/pipe/capture_command.cpp)
int cmd_capture_prefetch(const CaptureFlags& flags);
int cmd_capture_pipe(const CaptureFlags& flags);

// gate_commands.cpp
int cmd_reproduce(const std::vector<std::string>& studies, int jobs, bool full);
int cmd_check(const std::vector<std::string>& studies, int jobs, bool quick, bool full,
              const std::vector<std::string>& tolerance_flags);
int cmd_compare(const std::string& a, const std::string& b, const std::vector<std::string>& tolerance_flags,
                const std::string& format, bool all);

}  // namespace perflab
