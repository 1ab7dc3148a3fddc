// The share study's calibration fit (`perflab calibrate share`, NOTES.md "Calibration, apart from
// validation"): the real client's own CPU, which the real engine spends running the driver's code beside
// the cost table it burns and the sim charges as native_message_cost and native_ns_per_byte. The
// calibration scenario (calibrate-real.toml) runs with cpu = "none", so a real run is the network, the
// protocol and the code's own CPU, and the sim at the same point and seed (native costs 0) is the network and
// the protocol: each run's excess, real − sim duration, is the client's own CPU, a per-message and a
// per-byte part:
//   excess = native_message_cost × messages + native_ns_per_byte × bytes
// messages = the client's call_messages (a message of one turn's calls to one server, and its answer),
// bytes = bytes_read. Per message, not per call: the real client frames, writes, wakes for and parses a
// message whatever calls it holds, and its coalesced and readv runs at the message points (the same messages,
// readv's fewer calls) take the same time; Banana's per-token cost is Foolscap's, the cpu table's. The two
// are fitted apart, the message cost first:
//   1. native_message_cost = median of excess / messages over the message points (fewer than 16 KiB read
//      per message: extreme k and small segments, where the bytes' part is a few percent);
//   2. native_ns_per_byte = median of (excess − native_message_cost × messages) / bytes over the byte
//      points;
//   3. native_message_cost again, with the bytes' part of the message points taken off.
#include <cmath>
#include <string>
#include <vector>

#include "scenarios/share/share_study.h"
#include "sim/gate/calibration_record.h"
#include "sim/runner/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::share_study {
namespace {

constexpr double kMessagePointBytesPerMessage = 16 * 1024;  // below: a message point (step 1), above: bytes

struct Run {
  std::string label;
  double real, sim, messages, bytes;
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
  hook.fit = [](const std::vector<CalibrationWindow>& windows,
                const std::vector<CalibratedConstant>* at) -> Result<CalibrationFit> {
    std::vector<Run> message_points;
    std::vector<Run> byte_points;
    for (const CalibrationWindow& window : windows) {
      for (const auto& row : window.real->rows) {
        if (!row.ok()) continue;
        auto [begin, end] = window.sim->rows_of(row.point);
        for (auto it = begin; it != end; ++it) {
          if (it->replication != row.replication || !it->ok()) continue;
          const Run run{run_label(window, row), row.metrics.at("duration_s"), it->metrics.at("duration_s"),
                        it->metrics.at("call_messages"), it->metrics.at("bytes_read")};
          if (!(run.messages > 0)) continue;
          (run.bytes / run.messages < kMessagePointBytesPerMessage ? message_points : byte_points)
              .push_back(run);
        }
      }
    }
    if (message_points.empty() || byte_points.empty()) {
      return Status::Error("share's fit needs runs that succeeded in both engines at message points (under " +
                           std::to_string(static_cast<int>(kMessagePointBytesPerMessage)) +
                           " B read per message) and at byte points (above): got " +
                           std::to_string(message_points.size()) + " and " +
                           std::to_string(byte_points.size()));
    }
    double message_s = median_of(message_points, [](const Run& r) { return r.excess() / r.messages; });
    double byte_s = median_of(
        byte_points, [message_s](const Run& r) { return (r.excess() - message_s * r.messages) / r.bytes; });
    message_s = median_of(message_points,
                          [byte_s](const Run& r) { return (r.excess() - byte_s * r.bytes) / r.messages; });
    if (at != nullptr) {
      auto message_us = constant_value(*at, "native_message_cost", "");
      auto byte_ns = constant_value(*at, "native_ns_per_byte", "");
      if (!message_us.ok()) return message_us.status();
      if (!byte_ns.ok()) return byte_ns.status();
      message_s = *message_us * 1e-6;
      byte_s = *byte_ns * 1e-9;
    }

    CalibrationFit fit;
    fit.method =
        "real - sim duration_s (cpu = none, the sim at the same point and seed with no native cost) = "
        "native_message_cost x call_messages + native_ns_per_byte x bytes_read; fitted apart: "
        "native_message_cost = median of excess / call_messages over the message points (< 16 KiB per "
        "message), then native_ns_per_byte = median of (excess - message part) / bytes over the byte points, "
        "then native_message_cost again with the byte part taken off";
    fit.constants.push_back({"native_message_cost", std::round(message_s * 1e8) / 1e2, ""});  // us, to 0.01
    fit.constants.push_back({"native_ns_per_byte", std::round(byte_s * 1e11) / 1e2, ""});     // ns, to 0.01
    for (const auto* runs : {&message_points, &byte_points}) {
      for (const Run& run : *runs) {
        fit.residuals.push_back(
            {run.label, run.real, run.sim + message_s * run.messages + byte_s * run.bytes});
      }
    }
    return fit;
  };
  return hook;
}

}  // namespace perflab::share_study
