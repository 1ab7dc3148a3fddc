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

Result<double> constant_value(const std::vector<CalibratedConstant>& constants, const std::string& param,
                              const std::string& unit) {
  for (const auto& c : constants) {
    if (c.param != param) continue;
    if (c.unit != unit) {
      return Status::Error("calibration constant " + param + " is in \"" + c.unit + "\", expected \"" + unit +
                           "\"");
    }
    return c.value;
  }
  return Status::Error("the calibration has no constant " + param);
}

}  // namespace perflab
