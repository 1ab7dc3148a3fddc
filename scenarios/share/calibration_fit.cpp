// The share study's calibration fit (`perflab calibrate share`, NOTES.md "Calibration, apart from
// validation"): the real client's own CPU, which the real engine spends running the driver's code beside
// the cost table it burns and the sim charges as native_call_cost and native_ns_per_byte. The calibration
// scenario (calibrate-real.toml) runs with cpu = "none", so a real run is the network, the protocol and the
// code's own CPU, and the sim at the same point and seed (native costs 0) is the network and the protocol:
// each run's excess, real − sim duration, is the client's own CPU, a per-call and a per-byte part:
//   excess = native_call_cost × calls + native_ns_per_byte × bytes
// calls = the client's call_tokens / 17 (plain-read equivalents, call_cost.h), bytes = bytes_read. The two
// are fitted apart, the call cost first:
//   1. native_call_cost = median of excess / calls over the call points (fewer than 16 KiB read per call:
//      extreme k and small segments, where the bytes' part is a few percent);
//   2. native_ns_per_byte = median of (excess − native_call_cost × calls) / bytes over the byte points;
//   3. native_call_cost again, with the bytes' part of the call points taken off.
#include <cmath>
#include <string>
#include <vector>

#include "scenarios/share/call_cost.h"
#include "scenarios/share/share_study.h"
#include "sim/gate/calibration_record.h"
#include "sim/runner/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::share_study {
namespace {

constexpr double kCallPointBytesPerCall = 16 * 1024;  // below: a call point (step 1), above: a byte point

struct Run {
  std::string label;
  double real, sim, calls, bytes;
  double excess() const { return real - sim; }
};

double median_of(const std::vector<Run>& runs, const std::function<double(const Run&)>& value) {
  std::vector<double> values;
  for (const Run& run : runs) values.push_back(value(run));
  return stats::quantile(values, 0.5);
}

}  // namespace

CalibrationHook calibration_fit() {
  CalibrationHook hook;
  hook.needs_sim = true;
  hook.fit = [](const RunTable& real, const RunTable* sim,
                const std::vector<CalibratedConstant>* at) -> Result<CalibrationFit> {
    std::vector<Run> call_points;
    std::vector<Run> byte_points;
    for (const auto& row : real.rows) {
      if (!row.ok()) continue;
      auto [begin, end] = sim->rows_of(row.point);
      for (auto it = begin; it != end; ++it) {
        if (it->replication != row.replication || !it->ok()) continue;
        const Run run{run_label(real, row), row.metrics.at("duration_s"), it->metrics.at("duration_s"),
                      it->metrics.at("call_tokens") / kReadTokens, it->metrics.at("bytes_read")};
        if (!(run.calls > 0)) continue;
        (run.bytes / run.calls < kCallPointBytesPerCall ? call_points : byte_points).push_back(run);
      }
    }
    if (call_points.empty() || byte_points.empty()) {
      return Status::Error("share's fit needs runs that succeeded in both engines at call points (under " +
                           std::to_string(static_cast<int>(kCallPointBytesPerCall)) +
                           " B read per call) and at byte points (above): got " +
                           std::to_string(call_points.size()) + " and " + std::to_string(byte_points.size()));
    }
    double call_s = median_of(call_points, [](const Run& r) { return r.excess() / r.calls; });
    double byte_s =
        median_of(byte_points, [call_s](const Run& r) { return (r.excess() - call_s * r.calls) / r.bytes; });
    call_s =
        median_of(call_points, [byte_s](const Run& r) { return (r.excess() - byte_s * r.bytes) / r.calls; });
    if (at != nullptr) {
      auto call_us = constant_value(*at, "native_call_cost", "");
      auto byte_ns = constant_value(*at, "native_ns_per_byte", "");
      if (!call_us.ok()) return call_us.status();
      if (!byte_ns.ok()) return byte_ns.status();
      call_s = *call_us * 1e-6;
      byte_s = *byte_ns * 1e-9;
    }

    CalibrationFit fit;
    fit.method =
        "real - sim duration_s (cpu = none, the sim at the same point and seed with no native cost) = "
        "native_call_cost x calls + native_ns_per_byte x bytes_read, calls = the sim's call_tokens / 17; "
        "fitted apart: native_call_cost = median of excess / calls over the call points (< 16 KiB per call), "
        "then native_ns_per_byte = median of (excess - call part) / bytes over the byte points, then "
        "native_call_cost again with the byte part taken off";
    fit.constants.push_back({"native_call_cost", std::round(call_s * 1e8) / 1e2, ""});     // us, to 0.01
    fit.constants.push_back({"native_ns_per_byte", std::round(byte_s * 1e11) / 1e2, ""});  // ns, to 0.01
    for (const auto* runs : {&call_points, &byte_points}) {
      for (const Run& run : *runs) {
        fit.residuals.push_back({run.label, run.real, run.sim + call_s * run.calls + byte_s * run.bytes});
      }
    }
    return fit;
  };
  return hook;
}

}  // namespace perflab::share_study
