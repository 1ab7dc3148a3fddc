#include "sim/params.h"

#include <cstdio>
#include <cstdlib>

namespace perflab {

const char* type_name(ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return "integer";
    case ParamType::kReal:
      return "number";
    case ParamType::kBool:
      return "boolean";
    case ParamType::kChoice:
      return "choice";
    case ParamType::kDuration:
      return "duration";
    case ParamType::kSize:
      return "size";
    case ParamType::kRate:
      return "rate";
    case ParamType::kDistribution:
      return "distribution";
    case ParamType::kPath:
      return "path";
    case ParamType::kPathList:
      return "list of paths";
    case ParamType::kText:
      return "string";
  }
  return "?";
}

const ParamValue& Params::at(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    // A driver asking for a parameter its schema does not declare is a programming error.
    std::fprintf(stderr, "perflab: internal error: parameter \"%s\" is not in the study's schema\n",
                 name.c_str());
    std::abort();
  }
  return it->second;
}

int64_t Params::integer(const std::string& name) const {
  return std::get<int64_t>(at(name).typed);
}

double Params::real(const std::string& name) const {
  const auto& typed = at(name).typed;
  if (const auto* i = std::get_if<int64_t>(&typed)) return static_cast<double>(*i);
  return std::get<double>(typed);
}

bool Params::boolean(const std::string& name) const {
  return std::get<bool>(at(name).typed);
}

const std::string& Params::string(const std::string& name) const {
  return std::get<std::string>(at(name).typed);
}

const Distribution& Params::distribution(const std::string& name) const {
  return std::get<Distribution>(at(name).typed);
}

const std::vector<std::string>& Params::paths(const std::string& name) const {
  return std::get<std::vector<std::string>>(at(name).typed);
}

const std::string& Params::text(const std::string& name) const {
  return at(name).text;
}

}  // namespace perflab
