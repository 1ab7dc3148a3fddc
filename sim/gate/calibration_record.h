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
// one-point grid), and its window when the calibration had several ("…, seed 101, window 2 of 5, 19:31 UTC").
std::string run_label(const CalibrationWindow& window, const RunRow& row);

// results/<study>/<scenario>.calibration.toml and .calibration.csv.
std::filesystem::path calibration_file(const std::filesystem::path& results, const std::string& study,
                                       const std::string& scenario);
// How the committed constants fit a new calibration's runs, against how they fit their own: they
// re-derive when their worst |ln| here is within their worst there ("within its printed residual").
struct Rederivation {
  std::string committed;     // the committed .calibration.toml scored
  double mean = 0, max = 0;  // |ln(measured / fitted)| of the committed constants on these runs
  double own_max = 0;        // their worst on the runs they were fitted on (the committed .calibration.csv)
  std::optional<double> own_next;  // the next worst there, when own_max stands alone (lone_worst)
  bool rederived() const { return max <= own_max; }
};
// A fit's worst residual when it stands alone: beyond ln 2 (a run twice or half its fit) and at least three
// times the next worst, as one stalled run's is. Re-derivation is judged against the worst, which such a
// run puts out of reach of nearly any constants: calibrate says so when it prints the fit, and when it
// scores a committed fit that had one. Returns {worst, next worst} of |ln|.
std::optional<std::pair<double, double>> lone_worst(const std::vector<double>& log_errors);
// `committed_here`: the committed constants' residuals on this run's points; `committed_own`: theirs on
// their own runs. nullopt when there is no point here to score.
std::optional<Rederivation> rederive(const std::vector<CalibrationResidual>& committed_here,
                                     const std::vector<double>& committed_own, const std::string& committed);
std::string rederivation_text(const Rederivation& rederivation);

// The .calibration.toml: the constants, what was measured beside them, and, when a committed calibration
// was scored on the same runs, its re-derivation (a [rederivation] table with its verdict).
std::string calibration_toml(const CalibrationFit& fit, const std::string& scenario,
                             const std::string& record,
                             const std::optional<Rederivation>& rederivation = std::nullopt);
std::string calibration_csv(const CalibrationFit& fit);
// The constants of a .calibration.toml; an error names the file and what is wrong in it.
Result<std::vector<CalibratedConstant>> read_calibration(const std::filesystem::path& file);
// The residuals (ln(measured / fitted)) of a .calibration.csv: how well the committed constants fit their own
// runs.
Result<std::vector<double>> read_calibration_residuals(const std::filesystem::path& csv);
// The time a committed run took, as its report or calibration file states it ("wall time N s"); nullopt
// when the file is missing or states none. What validate and calibrate say before their first run.
std::optional<double> stated_wall_time(const std::filesystem::path& file);

// CalibrationFit::windows for a calibration made in `count` windows `gap_s` apart, starting at `starts`
// ("18:33 UTC", …): "5 windows 180 s apart, starting …"; empty for one window.
std::string windows_description(int count, int gap_s, const std::vector<std::string>& starts);
// A committed calibration's run as its file states it: its wall time, its windows and, in files written
// since it was recorded, the time this study's own runs took a window (a run of several studies states its
// wall time in each of their files; older files are one record for all of them).
struct StatedCalibrationRun {
  std::string record;  // the "# ran" line from its host on
  double seconds = 0;
  int windows = 1;
  double gap_s = 0;
  std::optional<double> study_seconds_a_window;
  double seconds_a_window() const {
    return study_seconds_a_window.value_or((seconds - (windows - 1) * gap_s) / windows);
  }
};
std::optional<StatedCalibrationRun> stated_calibration_run(const std::filesystem::path& file);
// The fit printed: method, constants, every point with its residual, and how far each constant moved from
// `before` (the committed file's), when there is one.
std::string calibration_text(const CalibrationFit& fit,
                             const std::optional<std::vector<CalibratedConstant>>& before);

}  // namespace perflab
