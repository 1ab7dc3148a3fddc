// The report of the traversal comparison: which (traversal, prune threshold, depth) buys the most job time
// per extra megabyte the agent holds. Each setting is compared with the shipped default (dfs, prune 1,
// depth 1), and the settings no other one beats on both duration and memory form the Pareto front.
#include <algorithm>
#include <cmath>

#include "sim/stats/stats.h"
#include "models/prefetch/prefetch_server.h"
#include "scenarios/prefetch/prefetch_study.h"
#include "sim/value_format.h"

namespace perflab::prefetch_study {
namespace {

struct Setting {
  std::string traversal, prune, depth;
  double duration = 0, duration_half = 0, megabytes = 0, rpcs = 0;
  bool pareto = false;
};

}  // namespace

std::string pareto_report(const RunTable& table) {
  std::vector<Setting> settings;
  const Setting* baseline = nullptr;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    auto durations = table.values(p, "duration_s");
    if (durations.empty()) continue;
    auto d = stats::summarize(durations);
    Setting s{table.column_label(p, "traversal"), table.column_label(p, "prune_threshold"),
              table.column_label(p, "prefetch_depth")};
    s.duration = d.mean;
    s.duration_half = (d.ci95_high - d.ci95_low) / 2;
    s.megabytes = stats::summarize(table.values(p, "bytes_prefetched")).mean / 1e6;
    s.rpcs = stats::summarize(table.values(p, "rpcs")).mean;
    settings.push_back(s);
  }
  for (auto& s : settings) {
    s.pareto = std::none_of(settings.begin(), settings.end(), [&](const Setting& o) {
      return o.duration <= s.duration && o.megabytes <= s.megabytes &&
             (o.duration < s.duration || o.megabytes < s.megabytes);
    });
  }
  std::sort(settings.begin(), settings.end(),
            [](const Setting& a, const Setting& b) { return a.duration < b.duration; });
  for (const auto& s : settings) {
    if (s.traversal == prefetch::traversal_name(prefetch::Traversal::kDfs) && s.prune == "1" &&
        s.depth == "1") {
      baseline = &s;
    }
  }
  std::string out = "### prefetch: traversal × prune threshold × depth, duration against memory\n\n";
  out +=
      "Baseline: the shipped behaviour (dfs, prune 1, depth 1). \"s saved per extra MB\" = job seconds saved "
      "over the baseline per extra megabyte of class files prefetched. ★ = Pareto-optimal (no setting is "
      "both faster and lighter).\n\n| traversal | prune | depth | duration (s) | MB prefetched | RPCs | "
      "s saved per extra MB | Pareto |\n|---|---:|---:|---:|---:|---:|---:|:---:|\n";
  for (const auto& s : settings) {
    std::string per_mb = "—";
    if (baseline != nullptr && s.megabytes > baseline->megabytes + 1e-9) {
      per_mb = format_printf("%.1f", (baseline->duration - s.duration) / (s.megabytes - baseline->megabytes));
    }
    out += "| " + s.traversal + " | " + s.prune + " | " + s.depth + " | " +
           format_printf("%.1f", s.duration) + " ± " + format_printf("%.1f", s.duration_half) + " | " +
           format_printf("%.2f", s.megabytes) + " | " + format_printf("%.0f", s.rpcs) + " | " + per_mb +
           " | " + (s.pareto ? "★" : "") + " |\n";
  }
  return out;
}

}  // namespace perflab::prefetch_study
