#include "sim/study/params.h"

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

std::string ParamSpec::engines_text() const {
  std::string text;
  for (size_t i = 0; i < engines.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == engines.size() ? " and " : ", ") + std::string(engine_name(engines[i]));
  }
  return text;
}

namespace {

ParamSpec make(std::string name, ParamType type, std::string default_value, std::string meaning) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.type = type;
  spec.default_value = std::move(default_value);
  spec.meaning = std::move(meaning);
  return spec;
}

// A string default as its TOML literal: "dfs" -> "\"dfs\"" (empty stays empty: required).
std::string quoted(const std::string& text) {
  return text.empty() ? text : "\"" + text + "\"";
}

}  // namespace

ParamSpec int_param(std::string name, std::string default_value, std::string meaning) {
  return make(std::move(name), ParamType::kInt, std::move(default_value), std::move(meaning));
}
ParamSpec real_param(std::string name, std::string default_value, std::string meaning) {
  return make(std::move(name), ParamType::kReal, std::move(default_value), std::move(meaning));
}
ParamSpec bool_param(std::string name, std::string default_value, std::string meaning) {
  return make(std::move(name), ParamType::kBool, std::move(default_value), std::move(meaning));
}
ParamSpec choice_param(std::string name, const std::string& default_choice, std::vector<std::string> choices,
                       std::string meaning) {
  ParamSpec spec = make(std::move(name), ParamType::kChoice, quoted(default_choice), std::move(meaning));
  spec.choices = std::move(choices);
  return spec;
}
ParamSpec duration_param(std::string name, const std::string& default_duration, std::string meaning) {
  return make(std::move(name), ParamType::kDuration, quoted(default_duration), std::move(meaning));
}
ParamSpec size_param(std::string name, const std::string& default_size, std::string meaning) {
  return make(std::move(name), ParamType::kSize, quoted(default_size), std::move(meaning));
}
ParamSpec rate_param(std::string name, const std::string& default_rate, std::string meaning) {
  return make(std::move(name), ParamType::kRate, quoted(default_rate), std::move(meaning));
}
ParamSpec distribution_param(std::string name, const std::string& default_distribution, std::string meaning) {
  return make(std::move(name), ParamType::kDistribution, quoted(default_distribution), std::move(meaning));
}
ParamSpec path_param(std::string name, const std::string& default_path, std::string meaning) {
  // Always a TOML string: an empty path is a default too (no file), never "required".
  return make(std::move(name), ParamType::kPath, "\"" + default_path + "\"", std::move(meaning));
}
ParamSpec path_list_param(std::string name, std::string default_list, std::string meaning) {
  return make(std::move(name), ParamType::kPathList, std::move(default_list), std::move(meaning));
}
ParamSpec text_param(std::string name, const std::string& default_text, std::string meaning) {
  return make(std::move(name), ParamType::kText, quoted(default_text), std::move(meaning));
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
