// The prefetch study's calibration fit (`perflab calibrate prefetch`, NOTES.md "Calibration, apart from
// validation"): exchange_overhead, the real engine's cost per request/reply exchange beyond the sim's, as
// the median over the calibration runs of (real duration - sim duration) / RPCs, the sim run at the same
// point and seed with no overhead and with this machine's wake-up latency, probed before the real runs
// (Study::probes_wake_up): the late wake-ups are measured, and only the rest is fitted.
#include <cmath>
#include <optional>
#include <string>

#include "scenarios/prefetch/prefetch_study.h"
#include "sim/gate/calibration_record.h"
#include "sim/runner/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::prefetch_study {

CalibrationHook calibration_fit() {
  CalibrationHook hook;
  hook.needs_sim = true;
  hook.fit = [](const std::vector<CalibrationWindow>& windows,
                const std::vector<CalibratedConstant>* at) -> Result<CalibrationFit> {
    struct Run {
      std::string label;
      double real, sim, rpcs;
      std::optional<double> wake_up;  // what the sim ran the point at
    };
    std::vector<Run> runs;
    std::vector<double> per_rpc;
    for (const CalibrationWindow& window : windows) {
      const RunTable& sim = *window.sim;
      for (const auto& row : window.real->rows) {
        if (!row.ok()) continue;
        auto [begin, end] = sim.rows_of(row.point);
        for (auto it = begin; it != end; ++it) {
          if (it->replication != row.replication || !it->ok()) continue;
          const double rpcs = row.metrics.at("rpcs");
          if (!(rpcs > 0)) continue;
          std::optional<double> wake_up;
          if (row.point < sim.wake_up.size()) wake_up = sim.wake_up[row.point];
          runs.push_back({run_label(window, row), row.metrics.at("duration_s"), it->metrics.at("duration_s"),
                          rpcs, wake_up});
          per_rpc.push_back((runs.back().real - runs.back().sim) / rpcs);
        }
      }
    }
    if (runs.empty()) return Status::Error("no calibration run succeeded in both engines: nothing to fit");
    double overhead_s = stats::quantile(per_rpc, 0.5);
    if (at != nullptr) {
      auto committed = constant_value(*at, "exchange_overhead", "ms");
      if (!committed.ok()) return committed.status();
      overhead_s = *committed * 1e-3;
    }
    CalibrationFit fit;
    fit.method =
        "exchange_overhead = median over runs of (real duration_s - sim duration_s) / rpcs, the sim "
        "at the same point and seed with exchange_overhead 0 and this machine's wake-up latency, probed "
        "before the real runs (measured, not fitted)";
    fit.constants.push_back({"exchange_overhead", std::round(overhead_s * 1e6) / 1e3, "ms"});  // to 1 µs
    for (const auto& run : runs)
      fit.residuals.push_back({run.label, run.real, run.sim + overhead_s * run.rpcs, run.wake_up});
    return fit;
  };
  return hook;
}

}  // namespace perflab::prefetch_study
