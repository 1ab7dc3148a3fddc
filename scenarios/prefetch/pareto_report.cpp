// The report of the traversal comparison: which (traversal, prune threshold, depth) buys the most job time
// per extra megabyte the agent holds. Each setting is compared with the shipped default (dfs, prune 1,
// depth 1), and the settings no other one beats on both duration and memory form the Pareto front.
#include <algorithm>

#include <fmt/format.h>

#include "models/prefetch/prefetch_server.h"
#include "scenarios/prefetch/prefetch_study.h"
#include "sim/markdown.h"
#include "sim/stats/stats.h"

namespace perflab::prefetch_study {
namespace {

struct Setting {
  std::string traversal, prune, depth;
  stats::Summary duration{};  // seconds
  double megabytes = 0, rpcs = 0;
  bool pareto = false;
};

}  // namespace

std::string pareto_report(const RunTable& table) {
  std::vector<Setting> settings;
  const Setting* baseline = nullptr;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    auto durations = table.values(p, "duration_s");
    if (durations.empty()) continue;
    Setting s{table.column_label(p, "traversal"), table.column_label(p, "prune_threshold"),
              table.column_label(p, "prefetch_depth")};
    s.duration = stats::summarize(durations);
    s.megabytes = stats::summarize(table.values(p, "bytes_prefetched")).mean / 1e6;
    s.rpcs = stats::summarize(table.values(p, "rpcs")).mean;
    settings.push_back(s);
  }
  for (auto& s : settings) {
    s.pareto = std::none_of(settings.begin(), settings.end(), [&](const Setting& o) {
      return o.duration.mean <= s.duration.mean && o.megabytes <= s.megabytes &&
             (o.duration.mean < s.duration.mean || o.megabytes < s.megabytes);
    });
  }
  std::sort(settings.begin(), settings.end(),
            [](const Setting& a, const Setting& b) { return a.duration.mean < b.duration.mean; });
  for (const auto& s : settings) {
    if (s.traversal == prefetch::kTraversalNames.name(prefetch::Traversal::kDfs) && s.prune == "1" &&
        s.depth == "1") {
      baseline = &s;
    }
  }
  std::string out = "### prefetch: traversal × prune threshold × depth, duration against memory\n\n";
  out +=
      "Baseline: the shipped behaviour (dfs, prune 1, depth 1). \"s saved per extra MB\" = job seconds saved "
      "over the baseline per extra megabyte of class files prefetched. ★ = Pareto-optimal (no setting is "
      "both faster and lighter).\n\n";
  MarkdownTable front({"traversal", "prune", "depth", "duration (s)", "MB prefetched", "RPCs",
                       "s saved per extra MB", "Pareto"},
                      "lrrrrrrc");
  for (const auto& s : settings) {
    std::string per_mb = "—";
    if (baseline != nullptr && s.megabytes > baseline->megabytes + 1e-9) {
      per_mb = fmt::format("{:.1f}",
                           (baseline->duration.mean - s.duration.mean) / (s.megabytes - baseline->megabytes));
    }
    front.add({s.traversal, s.prune, s.depth, mean_plus_minus(s.duration, "{:.1f}", "{:.1f}"),
               fmt::format("{:.2f}", s.megabytes), fmt::format("{:.0f}", s.rpcs), per_mb,
               s.pareto ? "★" : ""});
  }
  out += front.str();
  return out;
}

}  // namespace perflab::prefetch_study
