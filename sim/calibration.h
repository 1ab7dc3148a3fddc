// `perflab calibrate`: a study's calibration constants (what its sim cannot derive: a per-exchange overhead,
// a cost per locked section) fitted on the runs of its calibration scenario (`calibration_scenario` of its
// validate.toml, points outside the validation grid) by a method the study names, with the points used and
// their residuals. Written to results/<study>/<scenario>.calibration.toml (the constants, which `validate`
// sets on the sim side: typed nowhere else) and .calibration.csv (the points). The fits themselves are
// per-study hooks (Study::calibration); this file holds what they share.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
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
  double log_error() const;  // ln(measured / fitted)
};

struct CalibrationFit {
  std::string method;  // named, printed and written: "median over runs of (real - sim) / rpcs"
  std::vector<CalibratedConstant> constants;
  std::vector<CalibrationResidual> residuals;
  std::string source;  // where the constants came from, when not from a run here (a transcribed file)
};

// A study's fit: from the calibration scenario's real runs and, when `needs_sim`, the sim's runs of the same
// points and seeds with the constants at their defaults.
struct CalibrationHook {
  bool needs_sim = false;
  std::function<Result<CalibrationFit>(const RunTable& real, const RunTable* sim)> fit;
};

// A calibration run as its residual row names it: "prefetch_depth=4, seed 101" ("the point, seed 101" for a
// one-point grid).
std::string run_label(const RunTable& table, const RunRow& row);

// results/<study>/<scenario>.calibration.toml and .calibration.csv.
std::filesystem::path calibration_file(const std::filesystem::path& results, const std::string& study,
                                       const std::string& scenario);
std::string calibration_toml(const CalibrationFit& fit, const std::string& scenario,
                             const std::string& record);
std::string calibration_csv(const CalibrationFit& fit);
// The constants of a .calibration.toml; an error names the file and what is wrong in it.
Result<std::vector<CalibratedConstant>> read_calibration(const std::filesystem::path& file);
// The time a committed run took, as its report or calibration file states it ("wall time N s"); nullopt
// when the file is missing or states none. What validate and calibrate say before their first run.
std::optional<double> stated_wall_time(const std::filesystem::path& file);
// The fit printed: method, constants, every point with its residual, and how far each constant moved from
// `before` (the committed file's), when there is one.
std::string calibration_text(const CalibrationFit& fit,
                             const std::optional<std::vector<CalibratedConstant>>& before);

// Least squares without intercept: the a, b minimising sum (y - a x1 - b x2)^2; nullopt when x1 and x2 are
// collinear (the points cannot separate the two terms).
std::optional<std::pair<double, double>> least_squares_2(const std::vector<double>& x1,
                                                         const std::vector<double>& x2,
                                                         const std::vector<double>& y);

}  // namespace perflab
