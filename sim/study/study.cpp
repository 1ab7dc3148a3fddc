#include "sim/study/study.h"

#include <cstdio>
#include <cstdlib>
#include <set>

namespace perflab {
namespace {

std::map<std::string, std::unique_ptr<Study>>& registry() {
  static std::map<std::string, std::unique_ptr<Study>> studies;
  return studies;
}

// Why `study`'s parameters and metrics cannot be the columns of one CSV header, or "": a metric without a
// name, one bound twice, a metric named like a parameter of the same engine (of the engines the study
// provides), or either named like a column perflab adds (result_columns in sim/runner/run_outputs.h splits a header
// at "seed" or "runs").
std::string column_clash(const Study& study) {
  // Beside the parameters: "case" before them; "seed" and "error" in <name>.csv, "runs" and "failed" in
  // <name>.summary.csv (whose metric columns carry a suffix), "repetition" in <name>.repetitions.csv.
  const std::set<std::string> param_neighbours = {"case", "seed", "error", "runs", "failed", "repetition"};
  const std::set<std::string> metric_neighbours = {"case", "seed", "error"};
  for (const auto& param : study.params) {
    if (param_neighbours.count(param.name) != 0)
      return "parameter \"" + param.name + "\" named like a column perflab adds";
  }
  for (Engine engine : {Engine::kSim, Engine::kMicro, Engine::kReal}) {
    const bool provided = engine == Engine::kSim     ? bool(study.run_sim)
                          : engine == Engine::kMicro ? bool(study.setup_micro)
                                                     : bool(study.run_real);
    if (!provided) continue;
    std::set<std::string> seen;
    for (const auto& metric : study.metrics_for(engine)) {
      const std::string& name = metric.name;
      if (name.empty()) return "a metric without a name";
      if (!seen.insert(name).second) return "metric \"" + name + "\" bound twice";
      if (metric_neighbours.count(name) != 0)
        return "metric \"" + name + "\" named like a column perflab adds";
      const ParamSpec* param = study.find_param(name);
      if (param != nullptr && param->used_by(engine))
        return "metric \"" + name + "\" named like a parameter of the " + engine_name(engine) + " engine";
    }
  }
  return "";
}

}  // namespace

const ParamSpec* Study::find_param(const std::string& param) const {
  for (const auto& spec : params) {
    if (spec.name == param) return &spec;
  }
  return nullptr;
}

void register_study(Study study) {
  auto name = study.name;
  if (auto clash = column_clash(study); !clash.empty()) {
    std::fprintf(stderr, "study \"%s\": %s, expected one CSV column per parameter and per metric\n",
                 name.c_str(), clash.c_str());
    std::abort();
  }
  registry()[name] = std::make_unique<Study>(std::move(study));
}

const Study* find_study(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second.get();
}

Result<const Study*> study_named(const std::string& name) {
  if (const Study* study = find_study(name)) return study;
  std::string names;
  for (const auto& [known, study] : registry()) names += (names.empty() ? "" : ", ") + known;
  return Status::Error("unknown study \"" + name + "\", expected one of: " + names);
}

std::vector<const Study*> all_studies() {
  std::vector<const Study*> studies;
  for (const auto& [name, study] : registry()) studies.push_back(study.get());
  return studies;
}

}  // namespace perflab
