#include "sim/study.h"

#include <cstdio>
#include <cstdlib>
#include <set>

namespace perflab {
namespace {

std::map<std::string, std::unique_ptr<Study>>& registry() {
  static std::map<std::string, std::unique_ptr<Study>> studies;
  return studies;
}

// Why `study`'s metrics cannot be CSV columns (a metric without a name, or named twice), or "".
std::string metric_clash(const Study& study) {
  for (const auto* metrics : {&study.metrics, &study.micro_metrics}) {
    std::set<std::string> seen;
    for (const auto& metric : *metrics) {
      if (metric.name.empty()) return "a metric without a name";
      if (!seen.insert(metric.name).second) return "metric \"" + metric.name + "\" bound twice";
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
  if (auto clash = metric_clash(study); !clash.empty()) {
    std::fprintf(stderr, "study \"%s\": %s, expected one column per metric\n", name.c_str(), clash.c_str());
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
