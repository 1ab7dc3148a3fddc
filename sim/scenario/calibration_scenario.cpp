// See calibration_scenario.h.
#include "sim/scenario/calibration_scenario.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/study/params.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

fs::path calibration_scenario_file(const ValidateSpec& spec) {
  fs::path source = spec.calibration_source;
  return source.is_relative() ? scenarios_dir().parent_path() / source : source;
}

Result<Scenario> load_calibration_scenario(const Scenario& validation) {
  const ValidateSpec& spec = *validation.validate;
  auto calibration = load_scenario(calibration_scenario_file(spec), {});
  if (!calibration.ok()) {
    return Status::Error(validation.name + ": [validate] calibration_scenario \"" + spec.calibration_source +
                         "\": " + calibration.status().message());
  }
  return calibration;
}

Status calibration_outside(const Scenario& validation, const Scenario& calibration) {
  std::vector<std::pair<size_t, size_t>> shared;  // (column in the validation grid, in the calibration's)
  for (size_t c = 0; c < validation.param_columns.size(); ++c) {
    const auto& names = calibration.param_columns;
    auto found = std::find(names.begin(), names.end(), validation.param_columns[c]);
    if (found != names.end()) shared.emplace_back(c, static_cast<size_t>(found - names.begin()));
  }
  for (size_t k = 0; k < calibration.grid.size(); ++k) {
    const GridPoint& at = calibration.grid[k];
    for (size_t p = 0; p < validation.grid.size(); ++p) {
      const GridPoint& point = validation.grid[p];
      bool same = !shared.empty();
      for (auto [c, d] : shared) same = same && point.column_values[c] == at.column_values[d];
      if (!same) continue;
      std::vector<std::string> where;
      for (auto [c, d] : shared) {
        const std::string& label = at.column_labels[d];
        if (!is_unset_label(label)) where.push_back(validation.param_columns[c] + "=" + label);
      }
      return Status::Error(fmt::format(
          "{}: calibration point {} of {} ({}) lies inside the validation grid: the constants must be "
          "measured on points the validation does not judge",
          validation.name, k + 1, validation.validate->calibration_source, join(where)));
    }
  }
  return Status::OK();
}

}  // namespace perflab
