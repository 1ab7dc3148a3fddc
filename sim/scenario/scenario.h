// Scenario files: load a TOML scenario, apply --set overrides, validate every key against the study's
// schema, and lay out the grid (cases × cartesian product of [sweep], sim/scenario/grid.h). Everything a user
// can get wrong is reported here, as "file:line: what is wrong, what was expected", before anything runs (the
// points of a grid larger than kGridCheckedUpFront: as each runs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/scenario/grid.h"
#include "sim/scenario/validate_spec.h"
#include "sim/study/params.h"
#include "sim/study/study.h"

namespace perflab {

// One --set KEY=VALUE; the value is a TOML value ("2", "[0,1]", "\"constant(5ms)\""). The key "case" (from
// --case NAME) is no setting but a filter: only the [[case]]s so named run (kCaseKey, value the bare name).
constexpr const char* kCaseKey = "case";
struct Override {
  std::string key;
  std::string value;
  std::string origin{};  // where it was written, for errors; empty: "--set KEY=VALUE"
};
Result<Override> parse_override(const std::string& text);

struct Scenario {
  std::filesystem::path file;
  std::string name;
  std::string description;
  const Study* study = nullptr;
  Engine engine = Engine::kSim;
  bool headline = false;        // run by `perflab reproduce` and `perflab check`
  bool slow = false;            // headline, but only with --full (minutes of real CPU)
  std::vector<Override> quick;  // [quick]: the overrides of `perflab check --quick` (fewer seeds, sizes)
  std::map<std::string, double>
      check_tolerances;                  // [check]: relative tolerance per metric (sim/gate/check.h)
  std::optional<ValidateSpec> validate;  // [validate]: what `perflab validate` judges by
  int seeds = 1;
  uint64_t seed = 1;
  int repetitions = 5;         // micro engine: timed repetitions per point
  int long_repetitions = 5;    // micro engine: at most this many for a point whose run takes over a second
  double point_timeout_s = 0;  // wall limit per run (0: none); --point-timeout overrides it
  NetworkSpec network;
  std::vector<std::string> cases;  // every [[case]] name of the file, in file order (--case narrows the grid)
  std::vector<std::string> param_columns;  // "case" (if any), the study's parameters in its order, network
  Grid grid;                               // its points are made when asked (grid.h)
};

// `file` is a path, or a shipped scenario's name as `perflab list` prints it ("prefetch/jgit-clone.toml", or
// without ".toml"): see find_scenario_file.
Result<Scenario> load_scenario(const std::filesystem::path& file, const std::vector<Override>& overrides);

// The one way to name a scenario: a .toml file as given (relative to the current directory), else a shipped
// scenario under scenarios_dir() by the name `perflab list` prints, with or without ".toml".
Result<std::filesystem::path> find_scenario_file(const std::filesystem::path& name);

// A scenario given as TOML text instead of a file (a Python dict): `origin` stands for the file name in
// error messages, relative paths resolve against `dir`.
Result<Scenario> load_scenario_text(const std::string& text, const std::string& origin,
                                    const std::filesystem::path& dir, const std::vector<Override>& overrides);

// The folder holding the shipped scenarios (scenarios/ of the source tree, or $PERFLAB_SCENARIOS).
std::filesystem::path scenarios_dir();

}  // namespace perflab
