#include "sim/study.h"

namespace perflab {
namespace {

std::map<std::string, std::unique_ptr<Study>>& registry() {
  static std::map<std::string, std::unique_ptr<Study>> studies;
  return studies;
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
