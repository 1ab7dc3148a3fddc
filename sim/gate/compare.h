// `perflab compare A B`: two result folders (any two `run --out` folders of the same scenario, or two
// results/ trees, e.g. main's and a branch's) side by side, per grid point × metric: A, B, the relative
// change, and the verdict by the rules of `perflab check` (sim/gate/check.h) — the table a CI job posts on a pull
// request. Scenarios are paired by their <name>.csv (one found in only one folder is listed, not
// compared). Within a scenario the rows (point × seed) both folders hold are compared, and the report says
// first which those are ("B has 5 of A's 10 seeds at every point; compared on those"); rows one side lacks
// fail only with `require_all`. A scenario's study and engine come from its
// .meta (or, for a folder without one, from the CSV's metric columns), its [check] tolerances from the
// scenario file the .meta names, when it is still there.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/gate/check.h"

namespace perflab {

struct ScenarioComparison {
  std::string name;
  std::string study;
  Engine engine = Engine::kSim;
  std::filesystem::path a_csv, b_csv;
  std::string a_provenance, b_provenance;  // "commit 1a2b3c4d5e6f, GNU 12.2.0 RelWithDebInfo, SimGrid 3.32.0"
  Comparison values;
  std::vector<ClaimVerdict> claims;  // empty when the scenario file could not lay the CSVs over its grid
  bool require_all = false;          // rows one side lacks (values.coverage) are a failure
  bool pass() const;
};

struct FolderComparison {
  std::filesystem::path a, b;
  std::vector<ScenarioComparison> scenarios;
  std::vector<std::string> only_in_a, only_in_b;  // scenario names found on one side only
  bool pass() const;
};

struct CompareOptions {
  std::vector<std::string> tolerance_flags;  // --tolerance, as for check
  bool require_all = false;                  // --require-all: a row one side lacks fails
  std::string only;                          // compare only the scenario of this name ("": all)
};

// Pairs the scenarios of two folders and compares each. Bad input is an error (exit 2): a folder that
// does not exist or holds no results, no scenario in common, a malformed CSV (file:line), two CSVs of one
// name with different columns, or grids with no point in common (the parameter that changed is named).
Result<FolderComparison> compare_folders(const std::filesystem::path& a, const std::filesystem::path& b,
                                         const CompareOptions& options);

// The report: "md" (moved cells first; unchanged ones listed only with `all`), "csv" or "json".
std::string render_comparison(const FolderComparison& comparison, const std::string& format, bool all);

}  // namespace perflab
