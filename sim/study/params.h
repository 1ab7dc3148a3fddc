// A study's parameter schema and the typed values of one grid point.
// Each study declares its parameters (type, default, unit, meaning); the scenario loader checks every key
// of a scenario file against that schema, so drivers read already-validated values through Params.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/common/enum_names.h"
#include "models/common/status.h"
#include "sim/study/engine.h"
#include "sim/sampling/distribution.h"
#include "sim/sampling/units.h"

namespace perflab {

enum class ParamType {
  kInt,           // TOML integer
  kReal,          // TOML integer or float
  kBool,          // TOML boolean
  kChoice,        // TOML string, one of ParamSpec::choices
  kDuration,      // "20ms": seconds
  kSize,          // "64KiB": bytes
  kRate,          // "100MBps": bytes per second
  kDistribution,  // "uniform(0ms, 250ms)": a Distribution of durations
  kPath,          // a file, relative to the scenario file
  kPathList,      // a list of files
  kText,          // a free-form string the study's validate() checks
};

const char* type_name(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kInt;
  std::string default_value;  // TOML literal, e.g. "1", "\"dfs\"", "\"uniform(0ms, 250ms)\""; empty: required
  std::string meaning;
  std::vector<std::string> choices = {};  // kChoice only
  double min = 0;                         // numbers and quantities must be >= min
  std::vector<Engine> engines{};          // the engines that use it; empty: every engine

  bool used_by(Engine scenario_engine) const {
    return engines.empty() || std::find(engines.begin(), engines.end(), scenario_engine) != engines.end();
  }

  // "sim", "sim and real"; empty when every engine uses it.
  std::string engines_text() const;

  // Builders for a study's schema: int_param("requests", "100", "…").at_least(1).only(Engine::kSim), or
  // .only(Engine::kSim, Engine::kReal) for a knob two engines read.
  ParamSpec& at_least(double minimum) {
    min = minimum;
    return *this;
  }
  template <class... More>
  ParamSpec& only(Engine used_by_engine, More... more) {
    engines = {used_by_engine, more...};
    return *this;
  }
};

// A grid column's label that means "not set: the study's own default applies" (an empty path, a -1
// sentinel): reports list such a parameter as left at its default, not as a value.
inline bool is_unset_label(const std::string& label) { return label.empty() || label == "-1"; }

// One builder per type; `default_value` is a TOML literal (quoted for strings), empty for "required".
ParamSpec int_param(std::string name, std::string default_value, std::string meaning);
ParamSpec real_param(std::string name, std::string default_value, std::string meaning);
ParamSpec bool_param(std::string name, std::string default_value, std::string meaning);
ParamSpec choice_param(std::string name, const std::string& default_choice, std::vector<std::string> choices,
                       std::string meaning);
ParamSpec duration_param(std::string name, const std::string& default_duration, std::string meaning);
ParamSpec size_param(std::string name, const std::string& default_size, std::string meaning);
ParamSpec rate_param(std::string name, const std::string& default_rate, std::string meaning);
ParamSpec distribution_param(std::string name, const std::string& default_distribution, std::string meaning);
ParamSpec path_param(std::string name, const std::string& default_path, std::string meaning);
ParamSpec path_list_param(std::string name, std::string default_list, std::string meaning);
ParamSpec text_param(std::string name, const std::string& default_text, std::string meaning);

// One parameter's value: the typed form drivers read and the text that goes into CSV columns.
struct ParamValue {
  using Typed = std::variant<int64_t, double, bool, std::string, Distribution, std::vector<std::string>>;
  Typed typed;
  std::string text;
};

// The parameters of one grid point, every schema parameter present (defaults filled in).
class Params {
 public:
  void set(const std::string& name, ParamValue value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) > 0; }

  int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;  // also durations (s), sizes (B), rates (B/s)
  bool boolean(const std::string& name) const;
  const std::string& string(const std::string& name) const;  // choices and paths
  const Distribution& distribution(const std::string& name) const;
  const std::vector<std::string>& paths(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  // A choice as the enum its names table spells (the loader only lets those names through).
  template <class Enum>
  Enum choice(const std::string& name, const EnumNames<Enum>& names) const {
    return *names.parse(string(name));
  }

 private:
  const ParamValue& at(const std::string& name) const;
  std::map<std::string, ParamValue> values_;
};

}  // namespace perflab
