// The dispatcher study's calibration fit (`perflab calibrate dispatcher`, NOTES.md "Sim against real"): the
// lock cost model's constants (lock_cost_model.h) fitted to the real runs of calibrate-real.toml, each run's
// total lock hold against the model's tally of its sections (lock_cost_fit.h). The study's defaults
// (kCalibratedLockCost) are the committed fit, so the incident and its validation run at the same constants
// (tests/dispatcher/dispatcher_study_test.cpp checks that they agree with the committed file).
#include <cmath>
#include <string>
#include <tuple>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "scenarios/dispatcher/lock_cost_fit.h"
#include "sim/gate/calibration_record.h"
#include "sim/runner/run_table.h"

namespace perflab::dispatcher_study {
namespace {

// Three significant digits: what the fit can tell apart, and what the study's defaults are written with.
double rounded(double value) {
  if (value == 0) return 0;
  const double scale = std::pow(10.0, 2 - std::floor(std::log10(std::abs(value))));
  return std::round(value * scale) / scale;
}

}  // namespace

CalibrationHook calibration_fit() {
  CalibrationHook hook;
  hook.fit = [](const std::vector<CalibrationWindow>& windows,
                const std::vector<CalibratedConstant>* at) -> Result<CalibrationFit> {
    if (windows.empty()) return Status::Error("no calibration runs: nothing to fit");
    std::vector<LockCostObservation> observations;
    for (const CalibrationWindow& window : windows) {
      for (const auto& row : window.real->rows) {
        if (!row.ok()) continue;
        const auto metric = [&row](const char* name) { return static_cast<uint64_t>(row.metrics.at(name)); };
        LockCostTally tally;
        tally.sections = metric("lock_acquisitions");
        tally.moves = metric("lock_moves");
        tally.idle_decades = row.metrics.at("idle_decades");
        tally.cold_ops = metric("cold_ops");
        tally.ops = metric("ops_under_lock");
        tally.ops_running_calls = row.metrics.at("ops_running_calls");
        observations.push_back({run_label(window, row), tally, row.metrics.at("lock_hold_total_s")});
      }
    }
    // The L1d size the real runs counted running calls with: the scenario's (one value for every point).
    const LockCostModel cache = knobs().options(windows.front().real->params(0)).lock_cost;
    auto fitted = fit_lock_cost(observations, cache);
    if (!fitted.ok()) return fitted.status();
    LockCostModel m = fitted->model;
    if (at != nullptr) {  // the committed constants, in the units the fit writes them with below
      for (auto [param, unit, scale, field] :
           {std::tuple{"lock_section_cost", "us", 1e-6, &m.section_s},
            std::tuple{"lock_move_cost", "us", 1e-6, &m.move_s},
            std::tuple{"lock_idle_cost", "us", 1e-6, &m.idle_s},
            std::tuple{"cold_ns_per_op", "", 1.0, &m.cold_ns_per_op},
            std::tuple{"ns_per_op", "", 1.0, &m.ns_per_op},
            std::tuple{"ns_per_op_per_running_call", "", 1.0, &m.ns_per_op_per_running_call}}) {
        auto value = constant_value(*at, param, unit);
        if (!value.ok()) return value.status();
        *field = *value * scale;
      }
    }
    CalibrationFit fit;
    fit.method =
        "least squares of ln(model / measured) of each run's lock_hold_total_s, every constant >= 0, "
        "the model's terms tallied by the run (lock_cost_model.h; running calls charged up to L1d " +
        std::to_string(static_cast<int>(cache.l1d_bytes / 1024)) + " KiB)";
    fit.constants = {{"lock_section_cost", rounded(m.section_s * 1e6), "us"},
                     {"lock_move_cost", rounded(m.move_s * 1e6), "us"},
                     {"lock_idle_cost", rounded(m.idle_s * 1e6), "us"},
                     {"cold_ns_per_op", rounded(m.cold_ns_per_op), ""},
                     {"ns_per_op", rounded(m.ns_per_op), ""},
                     {"ns_per_op_per_running_call", rounded(m.ns_per_op_per_running_call), ""}};
    for (size_t i = 0; i < observations.size(); ++i) {
      const LockCostObservation& o = observations[i];
      fit.residuals.push_back({o.label, o.measured_hold_s, o.tally.predicted_hold_s(m)});
    }
    return fit;
  };
  return hook;
}

}  // namespace perflab::dispatcher_study
