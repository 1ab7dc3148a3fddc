// See knob_arguments.h.
#include "analysis/module/knob_arguments.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <toml++/toml.h>

#include "sim/scenario/toml_values.h"
#include "sim/text/value_format.h"

namespace py = pybind11;

namespace perflab::python {
namespace {

const ParamSpec& spec_named(const std::vector<ParamSpec>& specs, const std::string& name) {
  auto spec = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == name; });
  if (spec == specs.end()) throw std::logic_error("knob arguments: the study has no knob \"" + name + "\"");
  return *spec;
}

// A number for a size, duration or rate, written in the base unit so the scenario loader reads it.
std::string in_base_unit(double value, ParamType type) {
  const char* unit = type == ParamType::kSize ? "B" : type == ParamType::kDuration ? "s" : "Bps";
  return format_number(value) + unit;
}

bool is_quantity(ParamType type) {
  return type == ParamType::kSize || type == ParamType::kDuration || type == ParamType::kRate;
}

// The TOML value a scenario file would hold for `value`.
std::unique_ptr<toml::node> toml_of(const py::handle& value, const ParamSpec& spec) {
  if (py::isinstance<py::bool_>(value)) return std::make_unique<toml::value<bool>>(value.cast<bool>());
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) {
    if (is_quantity(spec.type))
      return std::make_unique<toml::value<std::string>>(in_base_unit(value.cast<double>(), spec.type));
    if (py::isinstance<py::int_>(value)) return std::make_unique<toml::value<int64_t>>(value.cast<int64_t>());
    return std::make_unique<toml::value<double>>(value.cast<double>());
  }
  if (py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__"))
    return std::make_unique<toml::value<std::string>>(py::str(value).cast<std::string>());
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {  // a list of paths
    auto array = std::make_unique<toml::array>();
    for (const py::handle item : value) array->push_back(py::str(item).cast<std::string>());
    return array;
  }
  throw py::type_error(spec.name + "=" + std::string(py::repr(value)) + ": expected a " +
                       type_name(spec.type));
}

}  // namespace

Params knob_params(const std::vector<ParamSpec>& specs, const std::vector<std::string>& names,
                   const py::kwargs& kwargs, const std::string& function) {
  Params params;
  for (const auto& [key, value] : kwargs) {
    const auto name = key.cast<std::string>();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw py::type_error(function + "() got an unexpected keyword argument '" + name +
                           "', expected one of " + join(names));
    }
    const ParamSpec& spec = spec_named(specs, name);
    const std::unique_ptr<toml::node> node = toml_of(value, spec);
    const Located at{node.get(), function + "(" + name + "=" + std::string(py::repr(value)) + ")",
                     std::filesystem::current_path()};
    Result<ParamValue> converted = to_param_value(spec, at);
    if (!converted.ok()) throw py::value_error(converted.status().message());
    params.set(name, std::move(converted).value());
  }
  return params;
}

std::string knob_lines(const std::vector<ParamSpec>& specs, const std::vector<std::string>& names) {
  std::string lines;
  for (const auto& name : names) {
    const ParamSpec& spec = spec_named(specs, name);
    lines += name + " (default " + spec.default_value + "): " + spec.meaning + ".\n";
  }
  return lines;
}

}  // namespace perflab::python
