// What a study declares of its calibration: the constants `perflab calibrate` fits (what its sim cannot
// derive: a per-exchange overhead, a cost per locked section), the residuals of the fit, and the hook that
// fits them on the runs of its calibration scenario (Study::calibration). The files the fit is written to
// and read back from are sim/gate/calibration_record.h's.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

struct RunTable;
struct RunRow;

// One fitted constant: a parameter of the study, its value in `unit` (a unit the parameter's knob parses:
// "ms", "us"; empty for a plain number).
struct CalibratedConstant {
  std::string param;
  double value = 0;
  std::string unit;
  std::string toml_value() const;  // "\"0.19ms\"" or "5.9": what [validate] calibration and --set take
};

// One calibration run: what it measured, what the fitted model gives there.
struct CalibrationResidual {
  std::string point;  // "rpc_delay=constant(5ms), prefetch_depth=4, seed 101"
  double measured = 0, fitted = 0;
  std::optional<double> wake_up = std::nullopt;  // s: the sim ran this point at it (RunTable::wake_up)
  double log_error() const;                      // ln(measured / fitted)
};

// A value of this machine the calibration's sim runs used, measured at run time and not fitted (the
// probed wake-up): the calibration file records its range over the points; validate measures its own.
struct MeasuredValue {
  std::string name;  // "wake_up"
  double low = 0, high = 0;
  std::string unit;  // "ms"
  std::string how;   // how it was measured
};

struct CalibrationFit {
  std::string method;  // named, printed and written: "median over runs of (real - sim) / rpcs"
  std::vector<CalibratedConstant> constants;
  std::vector<CalibrationResidual> residuals;
  std::vector<MeasuredValue> measured;
  std::string source;   // where the constants came from, when not from a run here (a transcribed file)
  std::string windows;  // when fitted on several windows: how many, how far apart, when
};

// The runs of one calibration window: the calibration scenario's real runs and, when the fit needs them, the
// sim's runs of the same points and seeds (at that window's probed wake-ups). `perflab calibrate --windows N`
// makes N windows minutes apart and fits once on all of them, so the constants and their residuals span the
// machine's states rather than one window's.
struct CalibrationWindow {
  const RunTable* real = nullptr;
  const RunTable* sim = nullptr;  // null when the fit needs none
  std::string name{};             // "window 2 of 5, 19:31 UTC"; empty when the calibration had one window
};

// A study's fit: from every window's real runs and, when `needs_sim`, the sim's runs of the same points and
// seeds with the constants at their defaults. With `at` (a committed calibration), the fit does not fit: its
// constants are `at`'s and its residuals say how well they fit these runs, so a re-run on another machine,
// or later, shows whether the committed constants still hold there.
struct CalibrationHook {
  bool needs_sim = false;
  std::function<Result<CalibrationFit>(const std::vector<CalibrationWindow>& windows,
                                       const std::vector<CalibratedConstant>* at)>
      fit;
};

// The value of `param` in `constants`; an error naming it when it is missing or has another unit.
Result<double> constant_value(const std::vector<CalibratedConstant>& constants, const std::string& param,
                              const std::string& unit);

}  // namespace perflab
