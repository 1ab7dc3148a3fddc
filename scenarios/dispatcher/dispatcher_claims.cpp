// What the dispatcher's headline reports claim that holds on any machine, for `perflab check`: the PR's
// speed-up (scan / counter at the largest n of the burst benchmark), indexed keeping up with counter, and
// the fitted exponents (scan and counter quadratic where the report says so, indexed linear everywhere,
// the real OkHttp 3.13.1 quadratic where the counter port is).
// Absolute times are never claimed: a shared machine can run the same code twice as slowly.
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <set>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/runner/run_table.h"
#include "sim/stats/stats.h"

namespace perflab::dispatcher_study {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kAny = std::numeric_limits<double>::infinity();

using dispatcher::Workload;
using I = Implementation;
using W = Workload;

// median seconds[workload][strategy][n] over the points that finished
using Medians = std::map<Workload, std::map<Implementation, std::map<int64_t, double>>>;
// the sizes n the grid sweeps for each [workload][strategy], whether or not their points finished
using Sizes = std::map<Workload, std::map<Implementation, std::set<int64_t>>>;

Sizes swept_sizes(const RunTable& table) {
  Sizes out;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const DispatcherOptions o = knobs().options(table.params(p));
    out[o.workload][o.strategy].insert(o.n);
  }
  return out;
}

Medians medians(const RunTable& table) {
  Medians out;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const DispatcherOptions o = knobs().options(table.params(p));
    auto values = table.values(p, "seconds");
    if (values.empty()) continue;
    out[o.workload][o.strategy][o.n] = stats::summarize(values).median;
  }
  return out;
}

double exponent(const std::map<int64_t, double>& by_n) {
  std::vector<double> ns, ts;
  for (const auto& [n, t] : by_n) {
    ns.push_back(static_cast<double>(n));
    ts.push_back(t);
  }
  auto fit = stats::fit_power(ns, ts);
  return fit.ok() && ns.size() >= 3 ? fit->b : kNaN;
}

// The slope in log-log between the two largest n: the growth once fixed per-call costs no longer dominate.
double end_slope(const std::map<int64_t, double>& by_n) {
  if (by_n.size() < 2) return kNaN;
  auto last = by_n.rbegin();
  auto before = std::next(last);
  return std::log(last->second / before->second) /
         std::log(static_cast<double>(last->first) / static_cast<double>(before->first));
}

// Bounds of each strategy's exponent per workload: what the reports state, with room for a noisy machine.
//
// The precision each needs, which sets the scenarios' repetitions (enqueue-burst.toml, adversarial.toml):
// an error of a factor e^d in one point's median moves a least-squares fit over four sizes spread evenly in
// log n by at most 0.3 d / ln(step between sizes) — 0.13 d over n = 64-64,000, 0.26 d over n = 100-3,200
// (end slopes: d / ln(step)). Against the committed medians a bound fails only if a line's largest point
// read this many times too fast (the lower bounds) or too slow (the upper ones): scan's burst (1.88) 8.6x,
// scan's round robin (2.32) 16x, the other C++ lines 2.2-7.4x, okhttp-jvm's end slopes (1.74-2.09) 1.8-2.7x.
// A run of a second or more spreads a few percent (scan at 64,000: 14%; at 3,200 round robin: 6%), so such
// a point runs once (`long_repetitions = 1`); the short points' runs, microseconds to milliseconds long,
// spread up to 8x (C++) and 2.3x (the JVM's), so they keep the median of three (burst) or five (adversarial).
struct ExponentBound {
  Workload workload;
  Implementation strategy;
  double low, high;
  bool at_the_end = false;  // claim the end slope (end_slope) rather than the fit over every n
};
constexpr ExponentBound kExponents[] = {
    {W::kEnqueueBurst, I::kScan, 1.6, kAny},
    {W::kEnqueueBurst, I::kCounter, 0, 1.2},
    {W::kEnqueueBurst, I::kIndexed, 0, 1.2},
    {W::kOneHostBacklog, I::kScan, 1.6, kAny},
    {W::kOneHostBacklog, I::kCounter, 1.6, kAny},
    {W::kOneHostBacklog, I::kIndexed, 0, 1.2},
    {W::kDistinctHosts, I::kScan, 0, 1.3},
    {W::kDistinctHosts, I::kCounter, 1.4, kAny},
    {W::kDistinctHosts, I::kIndexed, 0, 1.2},
    {W::kRoundRobin, I::kScan, 1.6, kAny},
    {W::kRoundRobin, I::kCounter, 1.6, kAny},
    {W::kRoundRobin, I::kIndexed, 0, 1.2},
    // The real OkHttp 3.13.1 on a JVM: the counter algorithm, superlinear on the three. Its ~10 µs per call
    // flattens the small end, so the fit over n = 100-3,200 swung from 1.1 to 1.8 between runs on this
    // machine; the claim is the slope from 1,000 to 3,200 calls (1.5-1.9 measured), with a JVM's noise.
    // Its burst exponent is left unclaimed: garbage collection of the live calls and late JIT make it
    // erratic.
    {W::kOneHostBacklog, I::kOkHttpJvm, 1.25, kAny, true},
    {W::kDistinctHosts, I::kOkHttpJvm, 1.25, kAny, true},
    {W::kRoundRobin, I::kOkHttpJvm, 1.25, kAny, true},
};

}  // namespace

std::vector<Claim> dispatcher_claims(const RunTable& table) {
  if (table.scenario->engine != Engine::kMicro) return {};
  std::vector<Claim> claims;
  auto seconds = medians(table);
  auto swept = swept_sizes(table);
  for (const auto& bound : kExponents) {
    // A grid that sweeps fewer sizes of the line than its claim needs (a calibration at one n) makes no
    // claim; one whose points did not all finish (a size that timed out) claims NaN, which fails.
    if (swept[bound.workload][bound.strategy].size() < (bound.at_the_end ? 2u : 3u)) continue;
    auto workload = seconds.find(bound.workload);
    if (workload == seconds.end() || workload->second.count(bound.strategy) == 0) continue;
    const auto& by_n = workload->second.at(bound.strategy);
    claims.push_back({std::string(bound.at_the_end ? "end slope of " : "exponent b of ") +
                          implementation_names().name(bound.strategy) + " on " +
                          dispatcher::kWorkloadNames.name(bound.workload),
                      bound.at_the_end ? end_slope(by_n) : exponent(by_n), bound.low, bound.high});
  }
  auto burst = seconds.find(W::kEnqueueBurst);
  if (burst != seconds.end() && !burst->second[I::kCounter].empty()) {
    auto largest = burst->second[I::kCounter].rbegin();
    int64_t n = largest->first;
    auto ratio = [&](Implementation a, Implementation b) {
      auto x = burst->second[a].find(n);
      auto y = burst->second[b].find(n);
      return x != burst->second[a].end() && y != burst->second[b].end() ? x->second / y->second : kNaN;
    };
    // The PR measured 131x at 64,000 and 6.5x at 6,400; ours is far larger (the C++ scan is not hidden
    // behind a JVM's other costs), so the bounds are the PR's own ratios, a floor this port must clear.
    // Precision: scan / counter at 64,000 is ~670x, so the floor of 100 fails only if scan's one run
    // (`long_repetitions = 1`) read 6.7x too fast or counter's median of three 6.7x too slow.
    double floor = n >= 64000 ? 100 : n >= 6400 ? 6.5 : 1;
    auto ratio_claim = [&](Implementation a, Implementation b, double low) {
      return Claim{std::string(implementation_names().name(a)) + " / " + implementation_names().name(b) +
                       " at n = " + std::to_string(n),
                   ratio(a, b), low, kAny};
    };
    claims.push_back(ratio_claim(I::kScan, I::kCounter, floor));
    claims.push_back(ratio_claim(I::kCounter, I::kIndexed, 0.5));
  }
  return claims;
}

}  // namespace perflab::dispatcher_study
