// The headline report of the `share` study: loop() calls and download time, before (eager) and after
// (coalesced) the fix, mean ± 95% interval over seeds, beside the ticket's numbers (reference.csv), for
// each CPU calibration, and the ratios after/before.
#include <map>

#include <fmt/format.h>

#include "scenarios/share/share_study.h"
#include "sim/markdown.h"
#include "sim/reference.h"
#include "sim/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::share_study {
namespace {

std::string mean_ci(const std::vector<double>& values, std::string_view mean_spec,
                    std::string_view half_spec) {
  return values.empty() ? "—" : mean_plus_minus(stats::summarize(values), mean_spec, half_spec);
}

double mean(const std::vector<double>& values) {
  return values.empty() ? 0 : stats::summarize(values).mean;
}

std::string ratio(double after, double before) {
  return after > 0 && before > 0 ? fmt::format("{:.3f}", after / before) : "—";
}

// #1545 (scenarios/share/calibrate-1545.toml): the 414 s the call cost is calibrated on, and the two
// claims the model predicts: readv's speed-up at k = 54 and the slowdown from k = 3 to k = 60.
std::string report_1545(const RunTable& table, const ReferenceTable& ticket) {
  std::map<int64_t, std::map<std::string, double>> seconds;  // k -> loop -> mean download time
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const Params& params = table.params(p);
    seconds[params.integer("k")][params.string("loop")] = mean(table.values(p, "duration_s"));
  }
  auto at = [&](int64_t k, const char* loop) {
    auto it = seconds.find(k);
    if (it == seconds.end() || it->second.count(loop) == 0) return 0.0;
    return it->second.at(loop);
  };
  auto published = [&](double k, const char* column) {
    auto row = ticket.find("k", k);
    return row ? ticket.number(*row, column).value_or(0.0) : 0.0;
  };
  auto saved = [](double before, double after) { return before > 0 ? 100 * (1 - after / before) : 0.0; };
  auto faster = [](double before, double after) { return after > 0 ? 100 * (before / after - 1) : 0.0; };
  MarkdownTable readv({"k", "coalesced (s)", "readv (s)", "readv: time saved", "readv: speed-up"}, "rrrrr");
  for (const auto& entry : seconds) {
    double c = at(entry.first, "coalesced");
    double r = at(entry.first, "readv");
    readv.add({std::to_string(entry.first), fmt::format("{:.1f}", c), fmt::format("{:.1f}", r),
               fmt::format("{:.1f}%", saved(c, r)), fmt::format("{:.1f}%", faster(c, r))});
  }
  double k54 = at(54, "coalesced");
  double readv54 = at(54, "readv");
  double k3 = at(3, "coalesced");
  MarkdownTable figures({"figure", "#1545", "model", "kind"}, "lrrl");
  figures.add({"k = 54, coalesced (trunk), 100 MB", fmt::format("{:.0f} s", published(54, "duration_s")),
               fmt::format("{:.1f} s", k54), "calibration (call_cost)"});
  figures.add({"readv speed-up at k = 54", fmt::format("about {:.0f}%", 100 * published(54, "readv_speedup")),
               fmt::format("{:.1f}% less time, {:.1f}% faster", saved(k54, readv54), faster(k54, readv54)),
               "prediction"});
  figures.add({"k = 60 / k = 3, coalesced", fmt::format("{:.0f}x", published(60, "slowdown_vs_k3")),
               fmt::format("{:.1f}x", k3 > 0 ? at(60, "coalesced") / k3 : 0.0), "prediction"});
  std::string out =
      "### share: ticket #1545, readv and high k (100 MB, 128 KiB segments, cpu = tahoe-1.9)\n\n" +
      readv.str() + "\n" + figures.str();
  out +=
      "\nThe k = 54 coalesced time is what the tahoe-1.9 call cost was fitted to (with #1268's 4.0 s and "
      "0.2 s at k = 3: scenarios/share/NOTES.md); the readv and k = 3 / k = 60 rows follow from the model.\n";
  return out;
}

}  // namespace

std::string headline_report(const RunTable& table) {
  if (table.scenario->engine != Engine::kSim) return "";
  auto reference = ReferenceTable::ForStudy("share");
  if (!reference.ok()) return "(no ticket table: " + reference.status().message() + ")\n";
  const ReferenceTable& ticket = *reference;
  if (table.scenario->name == "share-1545") return report_1545(table, ticket);
  auto ticket_at = [&](const std::string& loop, const std::string& metric) {
    auto row = ticket.find("loop", loop);
    return row ? ticket.number(*row, metric).value_or(0.0) : 0.0;
  };
  const std::string tahoe_1_9 = kCpuCalibrationNames.name(CpuCalibration::kTahoe19);  // the ticket's
  // cpu -> loop -> the point
  std::map<std::string, std::map<std::string, size_t>> points;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const Params& params = table.params(p);
    points[params.string("cpu")].emplace(params.string("loop"), p);
  }
  MarkdownTable runs({"cpu", "loop", "loop() calls", "ticket", "wasted loops", "CPU in loop() (s)",
                      "download (s)", "ticket (s)"},
                     "llrrrrrr");
  for (const auto& [cpu, by_loop] : points) {
    for (const std::string& loop : share::kLoopPolicyNames.names()) {
      auto it = by_loop.find(loop);
      if (it == by_loop.end()) continue;
      size_t p = it->second;
      bool ticket_row = cpu == tahoe_1_9 && loop != share::kLoopPolicyNames.name(share::LoopPolicy::kReadv);
      runs.add({cpu, loop, mean_ci(table.values(p, "loop_calls"), "{:.0f}", "{:.0f}"),
                ticket_row ? fmt::format("~{:.0f}", ticket_at(loop, "loop_calls")) : "—",
                mean_ci(table.values(p, "wasted_loops"), "{:.0f}", "{:.0f}"),
                mean_ci(table.values(p, "cpu_s"), "{:.4g}", "{:.2g}"),
                mean_ci(table.values(p, "duration_s"), "{:.4g}", "{:.2g}"),
                ticket_row ? fmt::format("{:.1f}", ticket_at(loop, "duration_s")) : "—"});
    }
  }
  MarkdownTable ratios({"cpu", "loop() calls", "ticket", "download time", "ticket"}, "lrrrr");
  for (const auto& [cpu, by_loop] : points) {
    if (by_loop.count("eager") == 0 || by_loop.count("coalesced") == 0) continue;
    size_t before = by_loop.at("eager");
    size_t after = by_loop.at("coalesced");
    bool tahoe = cpu == tahoe_1_9;
    ratios.add({cpu, ratio(mean(table.values(after, "loop_calls")), mean(table.values(before, "loop_calls"))),
                tahoe ? ratio(ticket_at("coalesced", "loop_calls"), ticket_at("eager", "loop_calls")) : "—",
                ratio(mean(table.values(after, "duration_s")), mean(table.values(before, "duration_s"))),
                tahoe ? ratio(ticket_at("coalesced", "duration_s"), ticket_at("eager", "duration_s")) : "—"});
  }
  std::string out = "### share: ticket #1268, eager vs coalesced Share.loop()\n\n";
  out +=
      "Ours: mean ± 95% CI over seeds. Ticket: one manual run of a 12 MB download (\"around 1200 to about "
      "580\" calls, \"4.2s to 4.0s\").\n\n" +
      runs.str() + "\nRatios after / before (coalesced / eager):\n\n" + ratios.str();
  out +=
      "\nCalibrations, not predictions: the tahoe-1.9 span-operation, remote-call and per-byte costs are "
      "fitted together (scenarios/share/NOTES.md) so that the fix saves the ticket's 0.2 s, the coalesced "
      "run takes its 4.0 s and #1545's k = 54 download its 414 s; so both times here hold by construction. "
      "What is reproduced is the loop counts and that the saving comes from redundant passes only. The "
      "measured rows charge the same counted work at this C++ model's own cost and each remote call at the "
      "real Foolscap's cost on this machine.\n";
  return out;
}

}  // namespace perflab::share_study
