// The headline report of the `prefetch` study: our sweep over prefetch depth beside PR #721's own table, the
// ratios that compare the two (shape, not absolute numbers: the PR's job loaded more code), and the
// logarithmic trend line metric = a + b·ln(depth) over depth ≥ 1 that the PR's spreadsheet fitted.
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "scenarios/prefetch/prefetch_study.h"
#include "sim/markdown.h"
#include "sim/reference.h"
#include "sim/stats/stats.h"
#include "sim/value_format.h"

namespace perflab::prefetch_study {
namespace {

struct Column {
  const char* metric;
  const char* title;
  bool pr;  // the PR reported it (a column of scenarios/prefetch/reference.csv)
};
const Column kColumns[] = {{"duration_s", "job duration (s)", true},
                           {"classes_prefetched", "classes prefetched", true},
                           {"rpcs", "class-loading RPCs", true},
                           {"bytes_prefetched", "bytes prefetched", false}};

// The summary of runs in bytes, in megabytes.
stats::Summary in_megabytes(stats::Summary s) {
  for (double* value : {&s.mean, &s.stddev, &s.ci95_low, &s.ci95_high, &s.min, &s.max, &s.median})
    *value /= 1e6;
  return s;
}

// A count as a whole number when the seeds agree, bytes in megabytes.
std::string mean_ci(const std::vector<double>& values) {
  if (values.empty()) return "—";
  auto s = stats::summarize(values);
  if (std::fabs(s.mean) >= 1e5) return mean_plus_minus(in_megabytes(s), "{:.1f}", "{:.1f}", "{:.2f}") + " MB";
  return mean_plus_minus(s, "{:.1f}", "{:.1f}", "{:.0f}");
}

// What the model leaves out, with the sizes measured in scenarios/prefetch/NOTES.md (which says how).
constexpr const char* kLeftOut =
    "\nWhat the model leaves out (measured or bounded in scenarios/prefetch/NOTES.md):\n\n"
    "- Lookups that are not class definitions: this clone also makes 3 class lookups that fail, 4 "
    "`getResource2` and 3 `getResources2`, never prefetched: 10 more RPCs at every depth (about 1.7 s with "
    "the default delays; +7% of the RPCs at depth 500). The PR's job had 28 (1,052 RPCs for 1,024 classes at "
    "depth 0).\n"
    "- JDK platform-loader classes (java.sql, java.security.jgss), which a JDK 17 controller would send as "
    "prefetched: none at depth 1, at most 7 at depth 10-500 with prune 1 (0.5% of the classes prefetched), "
    "9 and their own dependencies with prune 1000. RPCs unchanged.\n"
    "- Per-class-loader sent sets: Jenkins core and each plugin have their own loader and `prefetched` set; "
    "the trace has one classpath, so this is not measurable here (the PR's job loaded 1,024 classes to our "
    "704, Jenkins' own among them).\n";

std::string ratio(double a, double b) {
  return a > 0 && b > 0 ? fmt::format("{:.2f}", a / b) : "—";
}

}  // namespace

std::string depth_report(const RunTable& table) {
  auto reference = ReferenceTable::ForStudy("prefetch");
  if (!reference.ok()) return "(no PR table: " + reference.status().message() + ")\n";
  const ReferenceTable& pr_table = *reference;
  auto pr_at = [&](int depth, int column) {
    auto row = pr_table.find("prefetch_depth", depth);
    return row ? pr_table.number(*row, kColumns[column].metric).value_or(0.0) : 0.0;
  };
  std::map<int, double> ours[4];  // metric column -> depth -> mean
  std::map<int, std::vector<double>> values[4];
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    int depth = knobs().options(table.params(p)).server.prefetch_depth;
    if (values[0].count(depth) != 0) continue;  // the first point per depth
    for (int c = 0; c < 4; ++c) {
      values[c][depth] = table.values(p, kColumns[c].metric);
      if (!values[c][depth].empty()) ours[c][depth] = stats::summarize(values[c][depth]).mean;
    }
  }
  std::string out = "### prefetch: depth sweep beside PR #721's table\n\n";
  out +=
      "Ours: mean ± 95% CI over seeds, real JGit class-load trace on Debian's jgit-cli JARs, replayed in the "
      "order the JVM initiated the loads, the agent's JAR cache as upstream's. PR: one run of a Jenkins job "
      "initialising JGit (it loaded more code, so compare shapes and ratios, not absolute numbers).\n\n";
  std::vector<std::string> header = {"depth"};
  for (const auto& c : kColumns) {
    header.emplace_back(c.title);
    if (c.pr) header.emplace_back("PR");
  }
  MarkdownTable sweep(header, std::string(header.size(), 'r'));
  for (size_t r = 0; r < pr_table.rows(); ++r) {
    int depth = static_cast<int>(pr_table.number(r, "prefetch_depth").value_or(-1));
    if (values[0].count(depth) == 0) continue;
    std::vector<std::string> cells = {std::to_string(depth)};
    for (int c = 0; c < 4; ++c) {
      cells.push_back(mean_ci(values[c][depth]));
      if (kColumns[c].pr) cells.push_back(fmt::format("{:.0f}", pr_at(depth, c)));
    }
    sweep.add(cells);
  }
  out += sweep.str();

  auto our_at = [&](int column, int depth) { return ours[column].count(depth) ? ours[column][depth] : 0.0; };
  struct RatioRow {
    const char* name;
    int column, num, den;
  };
  MarkdownTable ratios({"ratio", "ours", "PR"}, "lrr");
  for (const RatioRow& r :
       {RatioRow{"RPCs depth 0 / depth 1", 2, 0, 1}, RatioRow{"RPCs depth 500 / depth 1", 2, 500, 1},
        RatioRow{"classes prefetched depth 500 / depth 1", 1, 500, 1},
        RatioRow{"duration depth 0 / depth 1", 0, 0, 1},
        RatioRow{"duration depth 500 / depth 1", 0, 500, 1}}) {
    ratios.add({r.name, ratio(our_at(r.column, r.num), our_at(r.column, r.den)),
                ratio(pr_at(r.num, r.column), pr_at(r.den, r.column))});
  }
  out += "\nRatios (ours vs the PR's):\n\n" + ratios.str();
  // What matches and what does not: the ratios within 15% of the PR's, and those off by more.
  std::vector<std::string> matches, differs;
  for (const RatioRow& r :
       {RatioRow{"RPCs", 2, 0, 1}, RatioRow{"job time", 0, 0, 1}, RatioRow{"RPCs", 2, 500, 1},
        RatioRow{"job time", 0, 500, 1}, RatioRow{"classes prefetched", 1, 500, 1}}) {
    double a = our_at(r.column, r.num) / our_at(r.column, r.den);
    double b = pr_at(r.num, r.column) / pr_at(r.den, r.column);
    if (!(a > 0) || !(b > 0)) continue;
    (std::fabs(a / b - 1) <= 0.15 ? matches : differs)
        .push_back(fmt::format("{} depth {} / depth 1 ({:.2f} vs {:.2f})", r.name, r.num, a, b));
  }
  auto listed = [](const std::vector<std::string>& items) { return items.empty() ? "none" : join(items); };
  out += fmt::format(
      "\nWithin 15% of the PR: {}. Further off: {}. Depth 1's halving of RPCs and job time is the PR's "
      "result; the deeper gains and the growth in classes sent depend on how much code the job loads, and "
      "the PR's Jenkins job loaded more.\n",
      listed(matches), listed(differs));

  // a, b and r² of the fit, or dashes when there is none.
  auto fit_cells = [](const std::vector<double>& fx, const std::vector<double>& fy) {
    auto fit = stats::fit_log(fx, fy);
    if (!fit.ok()) return std::vector<std::string>(3, "—");
    return std::vector<std::string>{fmt::format("{:.4g}", fit->a), fmt::format("{:.4g}", fit->b),
                                    fmt::format("{:.2f}", fit->r2)};
  };
  MarkdownTable trend({"metric", "ours: a", "ours: b", "ours: r²", "PR: a", "PR: b", "PR: r²"}, "lrrrrrr");
  for (int c = 0; c < 4; ++c) {
    std::vector<double> x, y, px, py;
    for (const auto& [depth, mean] : ours[c]) {
      if (depth < 1) continue;
      x.push_back(depth);
      y.push_back(mean);
      if (kColumns[c].pr) {
        px.push_back(depth);
        py.push_back(pr_at(depth, c));
      }
    }
    std::vector<std::string> cells = {kColumns[c].metric};
    for (const auto& cell : fit_cells(x, y)) cells.push_back(cell);
    for (const auto& cell : kColumns[c].pr ? fit_cells(px, py) : std::vector<std::string>(3, "—"))
      cells.push_back(cell);
    trend.add(cells);
  }
  out += "\nLogarithmic trend, metric = a + b·ln(depth) over depth ≥ 1 (the PR's spreadsheet):\n\n" +
         trend.str();
  return out + kLeftOut;
}

}  // namespace perflab::prefetch_study
