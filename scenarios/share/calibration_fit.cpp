// The share study's calibration fit (`perflab calibrate share`, NOTES.md "Calibration, apart from
// validation"): the real client's own time, which the real engine spends running the driver's code and
// waking up beside the cost table it burns, and the sim charges as native_message_cost, native_wait_cost
// and native_ns_per_byte. The calibration scenario (calibrate-real.toml) runs with cpu = "none", so a real
// run is the network, the protocol and the code's own time, and the sim at the same point and seed (native
// costs 0) is the network and the protocol: each run's excess, real − sim duration, is the client's own
// time, a part per message, a part per round trip and a part per byte:
//   excess = native_message_cost × messages + native_wait_cost × waits + native_ns_per_byte × bytes
// messages = the client's call_messages (a message of one turn's calls to one server, and its answer),
// waits = the sim's waits (the client's I/O passes that waited: about one per round trip, whose wake-ups,
// the servers' and the client's, the real engine pays once however many messages the round holds), bytes =
// bytes_read. Per message, not per call: the real client frames, writes and parses a message whatever calls
// it holds, and its coalesced and readv runs (the same messages, readv's fewer calls) take the same time;
// Banana's per-token cost is Foolscap's, the cpu table's. Each kind of point measures mostly one term:
//   message points: many messages a round and few bytes a message (40-of-50, 0.8 KiB blocks);
//   wait points: a few messages a round and few bytes (2-of-3, 8 KiB blocks);
//   byte points: many bytes a message (2-of-4, 512 KiB blocks).
// Each term is the median, over its own points, of what is left of the excess per unit once the other two
// terms are taken off (never below zero); starting from zero, the three medians are taken in turn until
// they settle (each kind's own term is most of its excess, so they do within a few rounds).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scenarios/share/share_study.h"
#include "sim/gate/calibration_record.h"
#include "sim/runner/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::share_study {
namespace {

constexpr double kBytePointBytesPerMessage = 16 * 1024;  // above: a byte point
constexpr double kMessagePointMessagesPerWait = 8;       // above (and few bytes): a message point
constexpr int kRounds = 50;                              // of the three medians in turn: far past settled

struct Run {
  std::string label;
  double real, sim, messages, waits, bytes;
  double excess() const { return real - sim; }
};

// The three terms, in seconds per message, per wait and per byte.
struct NativeCosts {
  double message_s = 0, wait_s = 0, byte_s = 0;
  double of(const Run& r) const { return message_s * r.messages + wait_s * r.waits + byte_s * r.bytes; }
};

// The median over `runs` of the excess left by `costs` per unit of `units`, plus the term already counted;
// never below zero (a run faster than its sim, on a noisy machine, is no negative cost: the sim refuses one).
double refit(const std::vector<Run>& runs, const NativeCosts& costs, double term_s,
             double (*units)(const Run&)) {
  std::vector<double> values;
  values.reserve(runs.size());
  for (const Run& run : runs) values.push_back((run.excess() - costs.of(run)) / units(run) + term_s);
  return std::max(0.0, stats::quantile(values, 0.5));
}

}  // namespace

CalibrationHook calibration_fit() {
  CalibrationHook hook;
  hook.needs_sim = true;
  hook.fit = [](const std::vector<CalibrationWindow>& windows,
                const std::vector<CalibratedConstant>* at) -> Result<CalibrationFit> {
    std::vector<Run> message_points, wait_points, byte_points;
    for (const CalibrationWindow& window : windows) {
      for (const auto& row : window.real->rows) {
        if (!row.ok()) continue;
        auto [begin, end] = window.sim->rows_of(row.point);
        for (auto it = begin; it != end; ++it) {
          if (it->replication != row.replication || !it->ok()) continue;
          const Run run{run_label(window, row),       row.metrics.at("duration_s"),
                        it->metrics.at("duration_s"), it->metrics.at("call_messages"),
                        it->metrics.at("waits"),      it->metrics.at("bytes_read")};
          if (!(run.messages > 0) || !(run.waits > 0)) continue;
          if (run.bytes / run.messages >= kBytePointBytesPerMessage)
            byte_points.push_back(run);
          else if (run.messages / run.waits >= kMessagePointMessagesPerWait)
            message_points.push_back(run);
          else
            wait_points.push_back(run);
        }
      }
    }
    if (message_points.empty() || wait_points.empty() || byte_points.empty()) {
      return Status::Error("share's fit needs runs that succeeded in both engines at message points (under " +
                           std::to_string(static_cast<int>(kBytePointBytesPerMessage)) +
                           " B read per message, at least " +
                           std::to_string(static_cast<int>(kMessagePointMessagesPerWait)) +
                           " messages a wait), at wait points (fewer) and at byte points (more bytes): got " +
                           std::to_string(message_points.size()) + ", " + std::to_string(wait_points.size()) +
                           " and " + std::to_string(byte_points.size()));
    }
    NativeCosts costs;
    for (int round = 0; round < kRounds; ++round) {
      costs.message_s =
          refit(message_points, costs, costs.message_s, [](const Run& r) { return r.messages; });
      costs.wait_s = refit(wait_points, costs, costs.wait_s, [](const Run& r) { return r.waits; });
      costs.byte_s = refit(byte_points, costs, costs.byte_s, [](const Run& r) { return r.bytes; });
    }
    if (at != nullptr) {
      auto message_us = constant_value(*at, "native_message_cost", "");
      auto wait_us = constant_value(*at, "native_wait_cost", "");
      auto byte_ns = constant_value(*at, "native_ns_per_byte", "");
      for (const auto* value : {&message_us, &wait_us, &byte_ns})
        if (!value->ok()) return value->status();
      costs = {*message_us * 1e-6, *wait_us * 1e-6, *byte_ns * 1e-9};
    }

    CalibrationFit fit;
    fit.method =
        "real - sim duration_s (cpu = none, the sim at the same point and seed with no native cost) = "
        "native_message_cost x call_messages + native_wait_cost x waits + native_ns_per_byte x bytes_read; "
        "each the median over its own points (message points: < 16 KiB a message and >= 8 messages a wait; "
        "wait points: fewer; byte points: more bytes) of the excess the other two leave per unit, the three "
        "taken in turn until they settle";
    fit.constants.push_back({"native_message_cost", std::round(costs.message_s * 1e8) / 1e2, ""});  // us
    fit.constants.push_back({"native_wait_cost", std::round(costs.wait_s * 1e8) / 1e2, ""});        // us
    fit.constants.push_back({"native_ns_per_byte", std::round(costs.byte_s * 1e11) / 1e2, ""});     // ns
    for (const auto* runs : {&message_points, &wait_points, &byte_points}) {
      for (const Run& run : *runs) fit.residuals.push_back({run.label, run.real, run.sim + costs.of(run)});
    }
    return fit;
  };
  return hook;
}

}  // namespace perflab::share_study
