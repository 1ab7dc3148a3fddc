// The commands that show what there is: list (the shipped scenarios) and describe (a study's knobs and
// metrics). See commands.h.
#include <algorithm>
#include <cstdio>

#include "sim/cli/commands.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

std::vector<fs::path> shipped_scenarios() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(scenarios_dir(), ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".toml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
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
    if (!scenario->cases.empty())
      std::printf("%-36s  cases (--case): %s\n", "", join(scenario->cases, ", ").c_str());
  }
  return 0;
}

// `perflab describe NAME`: a study's knobs and metrics; for a scenario, first what it runs (its grid and
// its [[case]]s, which --case narrows), then its study.
int cmd_describe(const std::string& name) {
  auto named = study_named(name);
  if (!named.ok()) {
    // A name that looks like a file is a missing scenario file, not a misspelt study.
    const bool looks_like_a_file =
        name.find('/') != std::string::npos || fs::path(name).extension() == ".toml";
    auto scenario = find_scenario_file(name).ok() || looks_like_a_file ? load_scenario(name, {})
                                                                       : Result<Scenario>(named.status());
    if (!scenario.ok()) return fail_input(scenario.status().message());
    std::printf("Scenario %s (%s): %s\n  %zu grid points x %d seeds, %s engine\n", scenario->name.c_str(),
                scenario->file.c_str(), scenario->description.c_str(), scenario->grid.size(), scenario->seeds,
                engine_name(scenario->engine));
    if (!scenario->cases.empty())
      std::printf("  cases (run one with --case NAME): %s\n", join(scenario->cases, ", ").c_str());
    std::printf("\n");
    named = scenario->study;
  }
  const Study* study = *named;
  std::printf("Study %s: %s\n\nEngines: %s%s%s\n\nParameters ([params], [sweep] or [[case]]):\n",
              study->name.c_str(), study->description.c_str(), study->run_sim ? "sim " : "",
              study->setup_micro ? "micro " : "", study->run_real ? "real" : "");
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
  for (auto [engine, present] : {std::pair{Engine::kMicro, bool(study->setup_micro)},
                                 std::pair{Engine::kReal, bool(study->run_real)}}) {
    if (!present) continue;
    std::printf("\nMetrics of the %s engine (CSV columns):\n", engine_name(engine));
    for (const auto& m : study->metrics_for(engine))
      std::printf("  %-24s %s\n", m.name.c_str(), m.meaning.c_str());
  }
  return 0;
}

}  // namespace perflab
