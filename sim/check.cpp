// See check.h.
#include "sim/check.h"

#include <cmath>
#include <map>

#include "analysis/stats.h"
#include "sim/outputs.h"
#include "sim/value_format.h"

namespace perflab {
namespace {

constexpr double kAlpha = 0.001;
constexpr double kRelativeEqual = 1e-9;

bool same_value(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

std::string mean_text(const std::vector<double>& values) {
  if (values.empty()) return "—";
  auto s = stats::summarize(values);
  return format_printf("%.6g", s.mean) + " (n=" + std::to_string(values.size()) + ")";
}

void check_exact(const RunTable& committed, const RunTable& fresh, const MetricSpec& metric,
                 CheckResult& result) {
  std::map<std::pair<size_t, uint64_t>, const RunRow*> committed_rows;
  for (const auto& row : committed.rows) {
    if (row.ok()) committed_rows[{row.point, row.seed}] = &row;
  }
  for (const auto& row : fresh.rows) {
    if (!row.ok()) continue;
    ++result.exact_values;
    double now = row.metrics.at(metric.name);
    auto it = committed_rows.find({row.point, row.seed});
    std::string point = point_label(*fresh.scenario, row.point) + ", seed " + std::to_string(row.seed);
    if (it == committed_rows.end()) {
      result.failures.push_back({point, metric.name, "(no row)", format_number(now), "exact", false});
      continue;
    }
    double before = it->second->metrics.at(metric.name);
    if (!same_value(before, now)) {
      result.failures.push_back(
          {point, metric.name, format_number(before), format_number(now), "exact", false});
    }
  }
}

void check_interval(const RunTable& committed, const RunTable& fresh, const MetricSpec& metric,
                    CheckResult& result) {
  for (size_t p = 0; p < fresh.scenario->grid.size(); ++p) {
    auto now = fresh.values(p, metric.name);
    if (now.empty()) continue;
    ++result.interval_tests;
    auto before = committed.values(p, metric.name);
    if (before.empty() || !welch_same_mean(before, now, kAlpha)) {
      result.failures.push_back({point_label(*fresh.scenario, p), metric.name, mean_text(before),
                                 mean_text(now), "Welch p >= 0.001", false});
    }
  }
}

void check_claims(const RunTable& committed, const RunTable& fresh, CheckResult& result) {
  const Study& study = *fresh.scenario->study;
  if (!study.claims) return;
  std::map<std::string, double> before;
  for (const auto& claim : study.claims(committed)) before[claim.name] = claim.value;
  for (const auto& claim : study.claims(fresh)) {
    ++result.claims;
    bool holds = claim.value >= claim.low && claim.value <= claim.high;
    if (holds) continue;
    auto it = before.find(claim.name);
    std::string bounds =
        "[" + format_printf("%.4g", claim.low) + ", " + format_printf("%.4g", claim.high) + "]";
    result.failures.push_back({claim.name, "claim",
                               it == before.end() ? "—" : format_printf("%.4g", it->second),
                               format_printf("%.4g", claim.value), bounds, false});
  }
}

}  // namespace

bool welch_same_mean(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
  auto sa = stats::summarize(a);
  auto sb = stats::summarize(b);
  double va = a.size() > 1 ? sa.stddev * sa.stddev : sb.stddev * sb.stddev;
  double vb = b.size() > 1 ? sb.stddev * sb.stddev : sa.stddev * sa.stddev;
  double se2 = va / static_cast<double>(a.size()) + vb / static_cast<double>(b.size());
  double difference = std::fabs(sa.mean - sb.mean);
  if (!(se2 > 0)) return difference <= kRelativeEqual * std::max(std::fabs(sa.mean), std::fabs(sb.mean));
  auto term = [](double v, size_t n) {
    double x = v / static_cast<double>(n);
    return n > 1 ? x * x / static_cast<double>(n - 1) : 0.0;
  };
  double df_denominator = term(va, a.size()) + term(vb, b.size());
  double df = df_denominator > 0 ? se2 * se2 / df_denominator : 1.0;
  return difference / std::sqrt(se2) <= stats::student_t_quantile(1 - alpha / 2, df);
}

CheckResult compare_runs(const RunTable& committed, const RunTable& fresh) {
  CheckResult result;
  const Scenario& scenario = *fresh.scenario;
  for (const auto& metric : scenario.study->metrics_for(scenario.engine)) {
    if (metric.exact) {
      check_exact(committed, fresh, metric, result);
    } else if (scenario.engine == Engine::kSim) {
      check_interval(committed, fresh, metric, result);
    }
  }
  check_claims(committed, fresh, result);
  for (const auto& row : fresh.rows) {
    if (row.outcome == Outcome::kFailed) {
      result.failures.push_back({point_label(scenario, row.point) + ", seed " + std::to_string(row.seed),
                                 "run", "", row.error, "runs", false});
    }
  }
  return result;
}

}  // namespace perflab
