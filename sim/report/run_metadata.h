// The run record: `perflab run --out` and `perflab reproduce` write a small metadata file beside each
// scenario's outputs (<name>.meta: what was run, how long it took, and its provenance: commit, build, host,
// command; see sim/gate/provenance.h), which results/README.md and the site (analysis/python/render.py) show.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/engines/machine_load.h"

namespace perflab {

// What `.meta` records of one run besides its provenance.
struct ReproducedScenario {
  std::string study;
  std::string name;
  std::string file;  // relative to scenarios/ when it is a shipped scenario, else as given
  std::string description;
  std::string engine;
  int seeds = 1;
  size_t runs = 0;           // runs that ended (ok or failed)
  size_t planned_runs = 0;   // runs of the grid (of the shard) this run was to make
  bool interrupted = false;  // Ctrl-C: the .meta says "interrupted: runs of planned_runs runs"
  double wall_s = 0;
  std::optional<MachineLoad> load_before, load_after;  // micro engine: around the timed repetitions
  std::vector<std::string> uses;  // the real programs the runs executed, with versions (Study::uses)
};

// "139 of 1000 runs": what an interrupted run's .meta and summaries say (after "interrupted: ").
std::string interrupted_text(size_t runs, size_t planned_runs);
// Writes <study_dir>/<name>.meta: the run's record, then the provenance of this process.
Status write_run_metadata(const std::filesystem::path& study_dir, const ReproducedScenario& run);
// A markdown table of how long each scenario took.
std::string timing_table(const std::vector<ReproducedScenario>& runs);

}  // namespace perflab
