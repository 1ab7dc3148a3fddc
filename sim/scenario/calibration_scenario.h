// The calibration scenario a validation scenario's [validate] table names (`calibration_scenario`): loaded,
// and checked to lie outside the validation grid. Shared by `perflab validate` and `perflab calibrate`.
#pragma once

#include <filesystem>

#include "models/common/status.h"
#include "sim/scenario/scenario.h"

namespace perflab {

// The calibration scenario's file: a relative path is from the checkout's root (scenarios_dir()'s parent).
std::filesystem::path calibration_scenario_file(const ValidateSpec& spec);
// Loads it (with no override); an error names the validation scenario and the file.
Result<Scenario> load_calibration_scenario(const Scenario& validation);
// Refuses a calibration measured inside the grid it is validated on: a point of `calibration` equal, on every
// column the two scenarios share, to a point of `validation`'s grid. The error names the point.
Status calibration_outside(const Scenario& validation, const Scenario& calibration);

}  // namespace perflab
