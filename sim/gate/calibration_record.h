// `perflab calibrate`: a study's calibration constants (what its sim cannot derive: a per-exchange overhead,
// a cost per locked section) fitted on the runs of its calibration scenario (`calibration_scenario` of its
// validate.toml, points outside the validation grid) by a method the study names, with the points used and
// their residuals. Written to results/<study>/<scenario>.calibration.toml (the constants, which `validate`
// sets on the sim side: typed nowhere else) and .calibration.csv (the points). The fits themselves are
// per-study hooks (sim/study/calibration_hook.h); this file holds the files they are written to.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/status.h"
#include "sim/study/calibration_hook.h"

namespace perflab {

struct RunTable;
struct RunRow;

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
// The residuals (ln(measured / fitted)) of a .calibration.csv: how well the committed constants fit their own
// runs.
Result<std::vector<double>> read_calibration_residuals(const std::filesystem::path& csv);
// Whether a calibration re-derives: `committed_here`, the committed constants' residuals on this run's points,
// against `committed_own`, their residuals on the runs they were fitted on. It does when the worst here is
// within the worst there ("within its printed residual").
std::string rederivation_text(const std::vector<CalibrationResidual>& committed_here,
                              const std::vector<double>& committed_own);
// The time a committed run took, as its report or calibration file states it ("wall time N s"); nullopt
// when the file is missing or states none. What validate and calibrate say before their first run.
std::optional<double> stated_wall_time(const std::filesystem::path& file);
// The fit printed: method, constants, every point with its residual, and how far each constant moved from
// `before` (the committed file's), when there is one.
std::string calibration_text(const CalibrationFit& fit,
                             const std::optional<std::vector<CalibratedConstant>>& before);

}  // namespace perflab
