// The pipe study's calibration fit (`perflab calibrate pipe`, NOTES.md "Time, paired"): the same-run
// replay's reader cost per read, c0 + c1 * bytes, measured on the calibration scenario's pipe sizes (32 KiB
// and 256 KiB, outside validate.toml's grid). Each run of the real pump gives its own cost line (a line
// through the median time of its reads of each page count, plus its median re-poll: models/pipe/same_run.h);
// the constants are the medians of c0 and of c1 over the calibration points. Residuals: each point's own
// line against the fitted one at the point's bytes per read.
#include <cmath>
#include <string>

#include "scenarios/pipe/pipe_study.h"
#include "sim/gate/calibration_record.h"
#include "sim/runner/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::pipe_study {

CalibrationHook calibration_fit() {
  CalibrationHook hook;
  hook.needs_sim = false;
  hook.fit = [](const std::vector<CalibrationWindow>& windows,
                const std::vector<CalibratedConstant>* at) -> Result<CalibrationFit> {
    struct Run {
      std::string label;
      double c0_us, c1_ns, bytes_per_read;
    };
    std::vector<Run> runs;
    std::vector<double> c0s, c1s;
    for (const CalibrationWindow& window : windows) {
      for (const auto& row : window.real->rows) {
        if (!row.ok()) continue;
        auto metric = [&row](const char* name) {
          auto found = row.metrics.find(name);
          return found == row.metrics.end() ? -1.0 : found->second;
        };
        const double c0 = metric("read_c0_us"), c1 = metric("read_c1_ns"),
                     per_read = metric("bytes_per_read");
        if (c0 < 0 || c1 < 0 || !(per_read > 0) || metric("same_runs") <= 0) continue;
        runs.push_back({run_label(window, row), c0, c1, per_read});
        c0s.push_back(c0);
        c1s.push_back(c1);
      }
    }
    if (runs.empty()) return Status::Error("no calibration run recorded the pump's reads: nothing to fit");
    double c0 = std::round(stats::quantile(c0s, 0.5) * 100) / 100;    // to 0.01 us
    double c1 = std::round(stats::quantile(c1s, 0.5) * 1000) / 1000;  // to 0.001 ns
    if (at != nullptr) {
      auto committed_c0 = constant_value(*at, "read_cost_c0_us", "");
      auto committed_c1 = constant_value(*at, "read_cost_c1_ns", "");
      if (!committed_c0.ok()) return committed_c0.status();
      if (!committed_c1.ok()) return committed_c1.status();
      c0 = *committed_c0;
      c1 = *committed_c1;
    }
    CalibrationFit fit;
    fit.method =
        "read_cost_c0_us, read_cost_c1_ns = medians over the calibration points of each point's own cost "
        "line (the pump's time per read from epoll_wait returned to handled: a line through the median of "
        "each page count, plus the median re-poll; median over the point's repetitions); residual: the "
        "point's line against the fitted one at its bytes per read";
    fit.constants.push_back({"read_cost_c0_us", c0, ""});
    fit.constants.push_back({"read_cost_c1_ns", c1, ""});
    for (const auto& run : runs) {
      fit.residuals.push_back({run.label, run.c0_us + run.c1_ns * 1e-3 * run.bytes_per_read,
                               c0 + c1 * 1e-3 * run.bytes_per_read});
    }
    return fit;
  };
  return hook;
}

}  // namespace perflab::pipe_study
