// The dispatcher study's calibration fit (`perflab calibrate dispatcher`, NOTES.md "Sim against real"):
// today's model, lock_hold_total_s = a x lock_acquisitions + b x ops_under_lock over the real runs of
// calibrate-real.toml, by least squares: a is lock_section_overhead, b is ns_per_op. The lead's working-set
// cost model (issue 39) replaces this hook with its own fit.
#include <cmath>
#include <string>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/run_table.h"

namespace perflab::dispatcher_study {

CalibrationHook calibration_fit() {
  CalibrationHook hook;
  hook.fit = [](const RunTable& real, const RunTable*) -> Result<CalibrationFit> {
    std::vector<double> sections, elements, hold;
    std::vector<std::string> labels;
    for (const auto& row : real.rows) {
      if (!row.ok()) continue;
      sections.push_back(row.metrics.at("lock_acquisitions"));
      elements.push_back(row.metrics.at("ops_under_lock"));
      hold.push_back(row.metrics.at("lock_hold_total_s"));
      labels.push_back(run_label(real, row));
    }
    auto ab = least_squares_2(sections, elements, hold);
    if (!ab) {
      return Status::Error(
          "the calibration runs cannot separate the cost per section from the cost per element (sections and "
          "elements are proportional across them): add points with other call counts or backlogs");
    }
    CalibrationFit fit;
    fit.method =
        "least squares of lock_hold_total_s = a x lock_acquisitions + b x ops_under_lock over the real "
        "runs: lock_section_overhead = a, ns_per_op = b";
    fit.constants.push_back({"lock_section_overhead", std::round(ab->first * 1e7) / 10, "us"});  // 0.1 µs
    fit.constants.push_back({"ns_per_op", std::round(ab->second * 1e10) / 10, ""});              // 0.1 ns
    for (size_t i = 0; i < hold.size(); ++i)
      fit.residuals.push_back({labels[i], hold[i], ab->first * sections[i] + ab->second * elements[i]});
    return fit;
  };
  return hook;
}

}  // namespace perflab::dispatcher_study
