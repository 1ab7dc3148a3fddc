// The headline reports of the `dispatcher` study: the PR's benchmark table (enqueue n calls to one host with
// both limits = n) with our C++ timings per strategy and the real OkHttp 3.13.1's on this machine's JVM
// beside the PR's Java numbers and the speed-ups, and for every workload the fitted complexity exponent b of
// each strategy (time ∝ n^b) with the points that did not finish within the point timeout.
#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/markdown.h"
#include "sim/reference.h"
#include "sim/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::dispatcher_study {
namespace {

using dispatcher::Workload;
using I = Implementation;

std::string format_time(double seconds) {
  if (!(seconds > 0)) return "—";
  if (seconds >= 1) return fmt::format("{:.2f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} µs", seconds * 1e6);
}

std::string format_ratio(double a, double b) {
  if (!(a > 0) || !(b > 0)) return "—";
  return fmt::format("{:.3g}×", a / b);
}

// "timed out" when a run of the point was killed at the point timeout, "failed" otherwise (a crash, or
// okhttp-jvm without a JVM).
std::string failure(const RunTable& table, size_t point) {
  for (const auto& row : table.rows) {
    if (row.point == point && row.outcome == Outcome::kTimedOut) return "timed out";
  }
  return "failed";
}

}  // namespace

std::string burst_report(const RunTable& table) {
  if (table.points_where("workload", dispatcher::kWorkloadNames.name(Workload::kEnqueueBurst)).empty())
    return "";
  auto reference = ReferenceTable::ForStudy("dispatcher");
  if (!reference.ok()) return "(no PR table: " + reference.status().message() + ")\n";
  // seconds[strategy][n], from the points of the enqueue_burst workload.
  std::map<Implementation, std::map<int64_t, double>> seconds;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const DispatcherOptions o = knobs().options(table.params(p));
    if (o.workload != Workload::kEnqueueBurst) continue;
    auto values = table.values(p, "seconds");
    if (values.empty()) continue;
    seconds[o.strategy][o.n] = stats::summarize(values).median;
  }
  std::string out = "### dispatcher: the PR's benchmark beside the PR's numbers\n\n";
  out +=
      "Enqueue n calls to one host with maxRequests = maxRequestsPerHost = n, never finish (real CPU, "
      "median). As in the PR, only the loop that creates and enqueues the calls is timed.\n";
  out +=
      "PR: Java 8 on a laptop, \"very unscientific\"; ours: the C++ ports and the real OkHttp 3.13.1 (the "
      "PR's fix, Debian's jar) on this machine's JVM, warmed up.\n\n";
  MarkdownTable burst({"n", "scan (3.12)", "counter (PR)", "indexed", "PR before", "PR after",
                       "OkHttp 3.13.1 (JVM)", "scan / counter", "PR before / after", "counter / indexed"},
                      std::string(10, 'r'));
  for (size_t r = 0; r < reference->rows(); ++r) {
    auto n = static_cast<int64_t>(reference->number(r, "n").value_or(0));
    double before_s = reference->number(r, "before_s").value_or(0);
    double after_s = reference->number(r, "after_s").value_or(0);
    auto get = [&](Implementation s) {
      auto it = seconds[s].find(n);
      return it == seconds[s].end() ? 0.0 : it->second;
    };
    burst.add({std::to_string(n), format_time(get(I::kScan)), format_time(get(I::kCounter)),
               format_time(get(I::kIndexed)), format_time(before_s), format_time(after_s),
               format_time(get(I::kOkHttpJvm)), format_ratio(get(I::kScan), get(I::kCounter)),
               format_ratio(before_s, after_s), format_ratio(get(I::kCounter), get(I::kIndexed))});
  }
  out += burst.str();
  // What matches and what does not, at the largest n both tables have.
  for (size_t r = reference->rows(); r-- > 0;) {
    auto n = static_cast<int64_t>(reference->number(r, "n").value_or(0));
    auto scan = seconds[I::kScan].find(n);
    auto counter = seconds[I::kCounter].find(n);
    if (scan == seconds[I::kScan].end() || counter == seconds[I::kCounter].end()) continue;
    double ours = scan->second / counter->second;
    double pr_before = reference->number(r, "before_s").value_or(0);
    double pr_after = reference->number(r, "after_s").value_or(0);
    double per_call_ns = 1e9 / static_cast<double>(n);
    auto jvm_cost = [&](int64_t at) {
      auto jvm = seconds[I::kOkHttpJvm].find(at);
      if (jvm == seconds[I::kOkHttpJvm].end()) return std::string();
      return fmt::format("{:.0f} ns in the real OkHttp 3.13.1 on this machine's JVM ({} the port) and ",
                         jvm->second * per_call_ns, format_ratio(jvm->second, counter->second));
    };
    out += fmt::format(
        "\nAt n = {} the fix speeds the benchmark up {} here and {} in the PR: the direction and the "
        "quadratic growth of scan match. The size does {}an enqueue with the fix costs {:.0f} ns in the C++ "
        "port, {}{:.0f} ns in the PR's Java timing, so there the per-call costs other than the scan were a "
        "far larger part of the total.\n",
        n, format_ratio(ours, 1), format_ratio(pr_before, pr_after),
        ours > pr_before / pr_after ? "not: " : "not exactly: ", counter->second * per_call_ns, jvm_cost(n),
        pr_after * per_call_ns);
    break;
  }
  return out;
}

namespace {

// Calibrated on this project's 2-core VM: below about 1,000 calls the real OkHttp's own cost per call on
// the JVM (~10 µs) hides its quadratic one-host backlog: n = 1,000 to 16,000 fits b = 1.98, the fast
// headline's 100 to 3,200 only 1.47.
constexpr int64_t kJvmCostHidesGrowthBelow = 1000;

// What the okhttp-jvm column's exponents on the adversarial workloads mean, from the sizes it ran ("" when
// it has none); the burst's is left unclaimed (dispatcher_claims.cpp).
std::string okhttp_jvm_fit_note(
    const std::map<std::string, std::map<Implementation, std::map<int64_t, double>>>& seconds) {
  int64_t smallest = std::numeric_limits<int64_t>::max();
  for (const auto& [workload, by_strategy] : seconds) {
    if (workload == dispatcher::kWorkloadNames.name(Workload::kEnqueueBurst)) continue;
    auto jvm = by_strategy.find(Implementation::kOkHttpJvm);
    if (jvm != by_strategy.end() && !jvm->second.empty())
      smallest = std::min(smallest, jvm->second.begin()->first);
  }
  if (smallest == std::numeric_limits<int64_t>::max()) return "";
  if (smallest >= kJvmCostHidesGrowthBelow)
    return fmt::format(
        "\nokhttp-jvm is fitted from n = {}, where the JVM's own cost per call no longer hides the growth.\n",
        smallest);
  return fmt::format(
      "\nokhttp-jvm's exponents here are flattened: below about {} calls the JVM's own cost per call "
      "(~10 µs) hides the growth, so they understate it, and its claims are the end slope between the two "
      "largest n. Its line where the growth shows, n = 1,000 to 16,000, is dispatcher-okhttp-growth "
      "(`perflab reproduce --full`).\n",
      kJvmCostHidesGrowthBelow);
}

}  // namespace

std::string exponent_report(const RunTable& table) {
  // seconds[workload][strategy][n]; failed[workload][strategy][n] says why n did not finish.
  std::map<std::string, std::map<Implementation, std::map<int64_t, double>>> seconds;
  std::map<std::string, std::map<Implementation, std::map<int64_t, std::string>>> failed;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const DispatcherOptions o = knobs().options(table.params(p));
    const std::string workload = dispatcher::kWorkloadNames.name(o.workload);
    const Implementation strategy = o.strategy;
    int64_t n = o.n;
    auto values = table.values(p, "seconds");
    if (values.empty()) {
      failed[workload][strategy][n] = failure(table, p);
    } else {
      seconds[workload][strategy][n] = stats::summarize(values).median;
    }
  }
  std::set<std::string> workloads;
  std::set<Implementation> ran;  // a column per strategy the scenario ran, in the names' order
  auto note = [&](const auto& by_workload) {
    for (const auto& [w, by_strategy] : by_workload) {
      workloads.insert(w);
      for (const auto& [s, by_n] : by_strategy) ran.insert(s);
    }
  };
  note(seconds);
  note(failed);
  std::vector<Implementation> strategies;
  for (Implementation s : implementation_names().values()) {
    if (ran.count(s) != 0) strategies.push_back(s);
  }

  std::vector<std::string> header = {"workload"};
  for (Implementation s : strategies) header.emplace_back(implementation_names().name(s));
  MarkdownTable exponents(header, "l" + std::string(strategies.size(), 'r'));
  for (const auto& workload : workloads) {
    std::vector<std::string> cells = {workload};
    for (Implementation s : strategies) {
      std::vector<double> ns, ts;
      for (const auto& [n, t] : seconds[workload][s]) {
        ns.push_back(n);
        ts.push_back(t);
      }
      std::string cell = "—";
      if (ns.size() >= 2) {
        auto fit = stats::fit_power(ns, ts);
        if (fit.ok()) cell = fmt::format("b = {:.2f}", fit->b);
      }
      for (const auto& [n, why] : failed[workload][s]) cell += fmt::format(" (n={} {})", n, why);
      cells.push_back(cell);
    }
    exponents.add(cells);
  }

  header.insert(header.begin() + 1, "n");
  MarkdownTable medians(header, "lr" + std::string(strategies.size(), 'r'));
  for (const auto& workload : workloads) {
    std::set<int> ns;
    for (Implementation s : strategies) {
      for (const auto& [n, t] : seconds[workload][s]) ns.insert(n);
      for (const auto& [n, why] : failed[workload][s]) ns.insert(static_cast<int>(n));
    }
    for (int n : ns) {
      std::vector<std::string> cells = {workload, std::to_string(n)};
      for (Implementation s : strategies) {
        auto it = seconds[workload][s].find(n);
        auto why = failed[workload][s].find(n);
        cells.push_back(it != seconds[workload][s].end()   ? format_time(it->second)
                        : why != failed[workload][s].end() ? why->second
                                                           : std::string("—"));
      }
      medians.add(cells);
    }
  }
  return "\nFitted complexity, time ∝ n^b (least squares in log-log over the n that finished):\n\n" +
         exponents.str() + okhttp_jvm_fit_note(seconds) + "\nMedian seconds per workload (rows n):\n\n" +
         medians.str();
}

}  // namespace perflab::dispatcher_study
