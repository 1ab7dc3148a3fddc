// Scenario files: load a TOML scenario, apply --set overrides, validate every key against the study's
// schema, and expand the grid (cases × cartesian product of [sweep]). Everything a user can get wrong is
// reported here, as "file:line: what is wrong, what was expected", before anything runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/params.h"
#include "sim/study.h"

namespace perflab {

// One --set KEY=VALUE; the value is a TOML value ("2", "[0,1]", "\"constant(5ms)\"").
struct Override {
  std::string key;
  std::string value;
};
Result<Override> parse_override(const std::string& text);

struct GridPoint {
  Params params;
  // Aligned with Scenario::param_columns. Values are what CSV files hold: numbers in base units (sizes in
  // bytes, durations in seconds, rates in bytes/s), everything else as written. Labels are how the scenario
  // spells them ("64KiB"), for tables a person reads.
  std::vector<std::string> column_values;
  std::vector<std::string> column_labels;
  // Hash of the point's columns and values (not labels): fingerprints a grid for --resume and shards.
  // It seeds nothing: a run's seed never depends on its point (sim/seeding.h).
  uint64_t identity = 0;
};

struct Scenario {
  std::filesystem::path file;
  std::string name;
  std::string description;
  const Study* study = nullptr;
  Engine engine = Engine::kSim;
  bool headline = false;        // run by `perflab reproduce` and `perflab check`
  bool slow = false;            // headline, but only with --full (minutes of real CPU)
  std::vector<Override> quick;  // [quick]: the overrides of `perflab check --quick` (fewer seeds, sizes)
  std::map<std::string, double> check_tolerances;  // [check]: relative tolerance per metric (sim/check.h)
  int seeds = 1;
  uint64_t seed = 1;
  int repetitions = 5;         // micro engine: timed repetitions per point
  double point_timeout_s = 0;  // wall limit per run (0: none); --point-timeout overrides it
  NetworkSpec network;
  std::vector<std::string> param_columns;  // "case" (if any), the study's parameters in its order, network
  std::vector<GridPoint> grid;
};

Result<Scenario> load_scenario(const std::filesystem::path& file, const std::vector<Override>& overrides);

// A scenario given as TOML text instead of a file (a Python dict): `origin` stands for the file name in
// error messages, relative paths resolve against `dir`.
Result<Scenario> load_scenario_text(const std::string& text, const std::string& origin,
                                    const std::filesystem::path& dir, const std::vector<Override>& overrides);

// The folder holding the shipped scenarios (scenarios/ of the source tree, or $PERFLAB_SCENARIOS).
std::filesystem::path scenarios_dir();

}  // namespace perflab
