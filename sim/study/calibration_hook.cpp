// See calibration_hook.h.
#include "sim/study/calibration_hook.h"

#include <cmath>

#include "sim/text/value_format.h"

namespace perflab {

std::string CalibratedConstant::toml_value() const {
  return unit.empty() ? format_number(value) : "\"" + format_number(value) + unit + "\"";
}

double CalibrationResidual::log_error() const {
  return std::log(measured / fitted);
}

}  // namespace perflab
