// See validation.h.
#include "sim/validation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "sim/markdown.h"
#include "sim/value_format.h"

namespace perflab {
namespace {

std::vector<double> ranks(const std::vector<double>& xs) {
  std::vector<size_t> order(xs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return xs[a] < xs[b]; });
  std::vector<double> rank(xs.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && xs[order[j + 1]] == xs[order[i]]) ++j;
    double average = (static_cast<double>(i + j) / 2) + 1;
    for (size_t k = i; k <= j; ++k) rank[order[k]] = average;
    i = j + 1;
  }
  return rank;
}

// P(X <= k) for X ~ binomial(n, 1/2).
double binomial_half_cdf(int n, int k) {
  double total = 0;
  double term = std::pow(0.5, n);  // C(n, 0) / 2^n
  for (int i = 0; i <= k; ++i) {
    total += term;
    term = term * (n - i) / (i + 1);
  }
  return total;
}

// The index of the column named `name`, or -1.
int column_index(const std::vector<std::string>& names, const std::string& name) {
  auto found = std::find(names.begin(), names.end(), name);
  return found == names.end() ? -1 : static_cast<int>(found - names.begin());
}

// The points matching "COLUMN=LABEL".
Result<std::vector<size_t>> matching(const ValidationInput& input, const std::string& selector, int& column) {
  auto eq = selector.find('=');
  column = eq == std::string::npos ? -1 : column_index(input.column_names, selector.substr(0, eq));
  if (column < 0) {
    return Status::Error("[validate] ratio \"" + selector + "\": expected COLUMN=VALUE with COLUMN one of " +
                         join(input.column_names));
  }
  std::vector<size_t> points;
  for (size_t p = 0; p < input.points.size(); ++p) {
    if (input.points[p].labels[static_cast<size_t>(column)] == selector.substr(eq + 1)) points.push_back(p);
  }
  if (points.empty())
    return Status::Error("[validate] ratio \"" + selector + "\" matches no point of the grid");
  return points;
}

// The ratio of metric m between paired points: those of `numerator` and `denominator` that agree on every
// column but the selectors'.
Result<std::vector<RatioResult>> ratios_of(const ValidationInput& input, const RatioSpec& spec, size_t m,
                                           const std::vector<PointError>& errors) {
  int num_column = -1, den_column = -1;
  auto numerators = matching(input, spec.numerator, num_column);
  if (!numerators.ok()) return numerators.status();
  auto denominators = matching(input, spec.denominator, den_column);
  if (!denominators.ok()) return denominators.status();
  std::vector<RatioResult> out;
  for (size_t n : *numerators) {
    for (size_t d : *denominators) {
      bool paired = true;
      std::string others;
      for (size_t c = 0; c < input.column_names.size(); ++c) {
        if (static_cast<int>(c) == num_column || static_cast<int>(c) == den_column) continue;
        if (input.points[n].labels[c] != input.points[d].labels[c]) paired = false;
      }
      if (!paired) continue;
      RatioResult r;
      r.name = input.metrics[m] + ": " + spec.numerator + " / " + spec.denominator;
      r.sim = errors[n].sim / errors[d].sim;
      r.real = errors[n].real_median / errors[d].real_median;
      out.push_back(r);
    }
  }
  return out;
}

std::string fixed(double value, int digits) {
  return fmt::format("{:.{}f}", value, digits);
}

// The columns whose value changes across the points (the table's); the others are said once.
std::vector<size_t> varying_columns(const ValidationInput& in) {
  std::vector<size_t> varying;
  for (size_t c = 0; c < in.column_names.size(); ++c) {
    for (const auto& point : in.points) {
      if (point.labels[c] != in.points.front().labels[c]) {
        varying.push_back(c);
        break;
      }
    }
  }
  return varying;
}

}  // namespace

bool ValidationReport::held() const {
  for (const auto& m : metrics) {
    for (const auto& c : m.criteria) {
      if (!c.held) return false;
    }
  }
  return true;
}

MedianInterval median_interval(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const int n = static_cast<int>(xs.size());
  if (n == 0) return {NAN, NAN, NAN};
  double median = n % 2 == 1 ? xs[static_cast<size_t>(n / 2)]
                             : (xs[static_cast<size_t>(n / 2 - 1)] + xs[static_cast<size_t>(n / 2)]) / 2;
  // The largest k with P(X < k) <= 2.5%: [x_(k), x_(n+1-k)] (1-based) covers the median with >= 95%;
  // at least k = 1, [min, max], when no k does.
  int k = 1;
  while (k + 1 <= n / 2 && binomial_half_cdf(n, k) <= 0.025) ++k;
  return {median, xs[static_cast<size_t>(k - 1)], xs[static_cast<size_t>(n - k)]};
}

double spearman_rho(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) return NAN;
  auto rx = ranks(x), ry = ranks(y);
  double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / rx.size();
  double my = std::accumulate(ry.begin(), ry.end(), 0.0) / ry.size();
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx == 0 || syy == 0) return NAN;
  return sxy / std::sqrt(sxx * syy);
}

Result<ValidationReport> make_validation_report(ValidationInput input) {
  ValidationReport report;
  const ValidationCriteria& bounds = input.spec.criteria;
  for (size_t m = 0; m < input.metrics.size(); ++m) {
    MetricReport metric;
    metric.metric = input.metrics[m];
    std::vector<double> sims, reals;
    double total = 0;
    for (const auto& point : input.points) {
      PointError e;
      e.sim = point.sim[m];
      if (point.real[m].empty() || !(e.sim > 0)) {
        return Status::Error(
            input.scenario + ": " + metric.metric + " at " + join(point.labels) +
            (point.real[m].empty() ? " has no successful real run" : " is not positive in the sim"));
      }
      auto interval = median_interval(point.real[m]);
      e.real_median = interval.median;
      e.real_low = interval.low;
      e.real_high = interval.high;
      e.log_error = std::log(e.real_median / e.sim);
      total += std::abs(e.log_error);
      metric.max_abs_log = std::max(metric.max_abs_log, std::abs(e.log_error));
      sims.push_back(e.sim);
      reals.push_back(e.real_median);
      metric.points.push_back(e);
    }
    metric.mean_abs_log = metric.points.empty() ? NAN : total / static_cast<double>(metric.points.size());
    metric.spearman = spearman_rho(sims, reals);
    for (const auto& spec : input.spec.ratios) {
      auto ratios = ratios_of(input, spec, m, metric.points);
      if (!ratios.ok()) return ratios.status();
      metric.ratios.insert(metric.ratios.end(), ratios->begin(), ratios->end());
    }
    auto criterion = [&](std::string name, double value, const std::string& op, double bound) {
      bool held = op == "<=" ? value <= bound : value >= bound;  // NaN never holds
      metric.criteria.push_back({std::move(name), value, op + " " + format_number(bound), held});
    };
    criterion("mean abs ln(real/sim)", metric.mean_abs_log, "<=", bounds.mean_abs_log);
    criterion("max abs ln(real/sim)", metric.max_abs_log, "<=", bounds.max_abs_log);
    for (const auto& r : metric.ratios) {
      criterion("ratio " + r.name.substr(r.name.find(": ") + 2) + ": abs(real/sim - 1)",
                std::abs(r.difference()), "<=", bounds.ratio_tolerance);
    }
    // ρ says nothing about a metric that does not vary (a count fixed by the grid): judged only when it does.
    if (!std::isnan(metric.spearman)) criterion("Spearman rho", metric.spearman, ">=", bounds.spearman);
    report.metrics.push_back(std::move(metric));
  }
  report.input = std::move(input);
  return report;
}

std::string validation_markdown(const ValidationReport& report) {
  const ValidationInput& in = report.input;
  std::string out = "### " + in.scenario + ": sim against real\n\n";
  const std::vector<size_t> varying = varying_columns(in);
  std::vector<std::string> fixed_values;
  for (size_t c = 0; c < in.column_names.size(); ++c) {
    if (std::find(varying.begin(), varying.end(), c) == varying.end() && !in.points.empty())
      fixed_values.push_back(in.column_names[c] + " = " + in.points.front().labels[c]);
  }
  if (!fixed_values.empty()) out += "Fixed: " + join(fixed_values) + ".\n\n";
  for (const auto& note : in.notes) out += "- " + note + "\n";
  if (!in.notes.empty()) out += "\n";
  for (const auto& m : report.metrics) {
    std::vector<std::string> header;
    for (size_t c : varying) header.push_back(in.column_names[c]);
    header.insert(header.end(), {"sim " + m.metric, "real median", "real 95% interval", "ln(real/sim)"});
    MarkdownTable table(header, std::string(varying.size(), 'l') + "rrrr");
    for (size_t p = 0; p < m.points.size(); ++p) {
      const auto& e = m.points[p];
      std::vector<std::string> row;
      for (size_t c : varying) row.push_back(in.points[p].labels[c]);
      row.insert(row.end(), {fmt::format("{:.4g}", e.sim), fmt::format("{:.4g}", e.real_median),
                             fmt::format("{:.4g} – {:.4g}", e.real_low, e.real_high), fixed(e.log_error, 4)});
      table.add(row);
    }
    out += table.str() + "\n";
    MarkdownTable verdict({"criterion (" + m.metric + ")", "value", "bound", "held"}, "lrrc");
    for (const auto& r : m.ratios) {
      out += "- ratio " + r.name + ": sim " + fmt::format("{:.3f}", r.sim) + ", real " +
             fmt::format("{:.3f}", r.real) + " (" + fmt::format("{:+.1f}%", 100 * r.difference()) + ")\n";
    }
    if (!m.ratios.empty()) out += "\n";
    for (const auto& c : m.criteria)
      verdict.add({c.name, fixed(c.value, 4), c.bound, c.held ? "yes" : "**no**"});
    out += verdict.str() + "\n";
  }
  out +=
      std::string("Verdict: ") + (report.held() ? "every criterion held" : "**a criterion failed**") + "\n";
  return out;
}

std::string validation_summary(const std::vector<StudyValidation>& studies) {
  MarkdownTable table({"study", "points", "metric", "mean abs ln", "max abs ln", "headline ratio sim / real",
                       "Spearman rho", "verdict"},
                      "lrlrrrrl");
  for (const auto& study : studies) {
    if (!study.report) {
      table.add({study.study, "", "", "", "", "", "", "**could not run**: " + study.problem});
      continue;
    }
    for (const auto& m : study.report->metrics) {
      std::vector<std::string> failed;
      for (const auto& c : m.criteria) {
        if (!c.held) failed.push_back(c.name);
      }
      std::string verdict = failed.empty() ? "held" : "**failed**: " + join(failed);
      if (!study.problem.empty()) verdict += (failed.empty() ? "; but " : "; ") + study.problem;
      std::string ratio =
          m.ratios.empty() ? "" : fmt::format("{:.3f} / {:.3f}", m.ratios[0].sim, m.ratios[0].real);
      table.add({study.study, std::to_string(m.points.size()), m.metric, fixed(m.mean_abs_log, 4),
                 fixed(m.max_abs_log, 4), ratio, std::isnan(m.spearman) ? "n/a" : fixed(m.spearman, 3),
                 verdict});
    }
  }
  return "### perflab validate: every study\n\n" + table.str();
}

std::string validation_csv(const ValidationReport& report) {
  const ValidationInput& in = report.input;
  std::string out;
  for (const auto& name : in.column_names) out += csv_field(name) + ",";
  out += "metric,sim,real_median,real_low,real_high,log_error\n";
  for (const auto& m : report.metrics) {
    for (size_t p = 0; p < m.points.size(); ++p) {
      const auto& e = m.points[p];
      for (const auto& value : in.points[p].columns) out += csv_field(value) + ",";
      out += csv_field(m.metric);
      for (double v : {e.sim, e.real_median, e.real_low, e.real_high, e.log_error})
        out += "," + format_number(v);
      out += "\n";
    }
  }
  return out;
}

}  // namespace perflab
