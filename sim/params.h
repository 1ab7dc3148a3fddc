// A study's parameter schema and the typed values of one grid point.
// Each study declares its parameters (type, default, unit, meaning); the scenario loader checks every key
// of a scenario file against that schema, so drivers read already-validated values through Params.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "models/common/status.h"
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
  std::string default_value;  // TOML literal, e.g. "1", "\"dfs\"", "\"uniform(0ms, 250ms)\""
  std::string meaning;
  std::vector<std::string> choices = {};  // kChoice only
  double min = 0;                         // numbers and quantities must be >= min
  std::string engine{};                   // "sim" or "micro" if only that engine uses it; empty: both
  bool used_by(const std::string& scenario_engine) const {
    return engine.empty() || engine == scenario_engine;
  }
};

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

 private:
  const ParamValue& at(const std::string& name) const;
  std::map<std::string, ParamValue> values_;
};

}  // namespace perflab
