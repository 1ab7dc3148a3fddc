// See validation.h.
#include "sim/validation.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/markdown.h"
#include "sim/value_format.h"

namespace perflab {
namespace {

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

// A ratio's selector: "COLUMN=LABEL" as the column's index and the label.
struct Selector {
  size_t column;
  std::string label;
};

Result<Selector> parse_selector(const ValidationInput& input, const std::string& text) {
  auto eq = text.find('=');
  auto found = eq == std::string::npos
                   ? input.column_names.end()
                   : std::find(input.column_names.begin(), input.column_names.end(), text.substr(0, eq));
  if (found == input.column_names.end()) {
    return Status::Error("[validate] ratio \"" + text + "\": expected COLUMN=VALUE with COLUMN one of " +
                         join(input.column_names));
  }
  return Selector{static_cast<size_t>(found - input.column_names.begin()), text.substr(eq + 1)};
}

std::vector<size_t> matching(const ValidationInput& input, const Selector& selector) {
  std::vector<size_t> points;
  for (size_t p = 0; p < input.points.size(); ++p) {
    if (input.points[p].labels[selector.column] == selector.label) points.push_back(p);
  }
  return points;
}

// The distinct labels of a column, in grid order: what a selector could have named.
std::vector<std::string> labels_of(const ValidationInput& input, size_t column) {
  std::vector<std::string> labels;
  for (const auto& point : input.points) {
    if (std::find(labels.begin(), labels.end(), point.labels[column]) == labels.end())
      labels.push_back(point.labels[column]);
  }
  return labels;
}

// The columns whose value changes across the points (the table's); the others are said once.
std::vector<size_t> varying_columns(const ValidationInput& in) {
  std::vector<size_t> varying;
  for (size_t c = 0; c < in.column_names.size(); ++c) {
    if (labels_of(in, c).size() > 1) varying.push_back(c);
  }
  return varying;
}

// True when column `b`'s label follows from column `a`'s at every point (a case's k and n from its name).
bool determined_by(const ValidationInput& in, size_t a, size_t b) {
  for (const auto& p : in.points) {
    for (const auto& q : in.points) {
      if (p.labels[a] == q.labels[a] && p.labels[b] != q.labels[b]) return false;
    }
  }
  return true;
}

// The varying columns that name a ratio's group: all but the selectors' and those an earlier one determines.
std::vector<size_t> group_columns(const ValidationInput& in, const std::vector<size_t>& selector_columns) {
  std::vector<size_t> group;
  for (size_t c : varying_columns(in)) {
    if (std::find(selector_columns.begin(), selector_columns.end(), c) != selector_columns.end()) continue;
    if (std::none_of(group.begin(), group.end(), [&](size_t g) { return determined_by(in, g, c); }))
      group.push_back(c);
  }
  return group;
}

std::string group_text(const ValidationInput& in, const std::vector<size_t>& columns, size_t point) {
  std::vector<std::string> parts;
  for (size_t c : columns) parts.push_back(in.column_names[c] + "=" + in.points[point].labels[c]);
  return join(parts);
}

std::string pair_text(const RatioSpec& spec) {
  return spec.numerator + " / " + spec.denominator + (spec.at.empty() ? "" : " at " + spec.at);
}

std::string fixed(double value, int digits) {
  return std::isnan(value) ? "–" : fmt::format("{:.{}f}", value, digits);
}

// A point's value: counts as integers, large values without an exponent, others to 4 significant digits.
std::string value_text(double value) {
  if (std::isfinite(value) && (value == std::round(value) || std::abs(value) >= 1e4))
    return fmt::format("{:.0f}", value);
  return fmt::format("{:.4g}", value);
}

const char* verdict_text(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHeld:
      return "held";
    case Verdict::kFailed:
      return "**failed**";
    case Verdict::kNotJudged:
      return "not judged";
  }
  return "";
}

// The criteria table's columns after the leading ones (study, metric…), shared by the report and the summary.
const std::vector<std::string> kCriterionColumns = {"criterion", "where",   "value",
                                                    "bound",     "verdict", "detail"};

std::vector<std::string> criterion_cells(const Criterion& c) {
  return {c.name, c.where, fixed(c.value, 4), c.bound, verdict_text(c.verdict), c.detail};
}

// The rank rule's criterion for one metric (docs/validation.md).
Criterion rank_criterion(const RankAgreement& rank, double bound) {
  Criterion c{"rank order: Kendall tau-b", "", NAN, ">= " + format_number(bound), Verdict::kNotJudged, ""};
  c.where = fmt::format("{} of {} pairs testable", rank.testable, rank.pairs);
  if (rank.testable < kMinTestablePairs) {
    c.detail = fmt::format(
        "order not testable: the sim separates {} pair(s) by more than the real 95% interval (needs {}); "
        "the other pairs' order is real noise",
        rank.testable, kMinTestablePairs);
    return c;
  }
  c.value = rank.tau;
  c.verdict = rank.tau >= bound ? Verdict::kHeld : Verdict::kFailed;
  c.detail = fmt::format("{} ordered as in the sim, {} the other way, {} tied in real", rank.concordant,
                         rank.discordant, rank.real_ties);
  return c;
}

}  // namespace

Result<RatioPairs> ratio_pairs(const ValidationInput& input, const RatioSpec& spec) {
  std::vector<Selector> selectors;
  for (const std::string* text : {&spec.numerator, &spec.denominator, &spec.at}) {
    if (text->empty()) continue;
    auto selector = parse_selector(input, *text);
    if (!selector.ok()) return selector.status();
    selectors.push_back(*selector);
  }
  RatioPairs out;
  for (const Selector& selector : selectors) {
    if (matching(input, selector).empty()) {
      out.not_judged = fmt::format(
          "{}={} is not a point of this grid ({}: {})", input.column_names[selector.column], selector.label,
          input.column_names[selector.column], join(labels_of(input, selector.column)));
      return out;
    }
  }
  std::vector<size_t> numerators = matching(input, selectors[0]);
  if (selectors.size() == 3) {
    auto at = matching(input, selectors[2]);
    numerators.erase(std::remove_if(numerators.begin(), numerators.end(),
                                    [&](size_t p) { return std::find(at.begin(), at.end(), p) == at.end(); }),
                     numerators.end());
  }
  for (size_t n : numerators) {
    for (size_t d : matching(input, selectors[1])) {
      bool paired = n != d;
      for (size_t c = 0; c < input.column_names.size() && paired; ++c) {
        if (c == selectors[0].column || c == selectors[1].column) continue;
        paired = input.points[n].labels[c] == input.points[d].labels[c];
      }
      if (paired) out.pairs.emplace_back(n, d);
    }
  }
  if (out.pairs.empty())
    out.not_judged = "no two points of this grid differ only in " + spec.numerator + " / " + spec.denominator;
  return out;
}

bool ValidationReport::held() const {
  for (const auto& m : metrics) {
    for (const auto& c : m.criteria) {
      if (c.verdict == Verdict::kFailed) return false;
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

Result<ValidationReport> make_validation_report(ValidationInput input) {
  ValidationReport report;
  const ValidationCriteria& bounds = input.spec.criteria;
  for (size_t m = 0; m < input.metrics.size(); ++m) {
    MetricReport metric;
    metric.metric = input.metrics[m];
    std::vector<RankedPoint> ranked;
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
      ranked.push_back({e.sim, e.real_median, e.real_low, e.real_high});
      metric.points.push_back(e);
    }
    metric.mean_abs_log = metric.points.empty() ? NAN : total / static_cast<double>(metric.points.size());
    metric.rank = rank_agreement(ranked);
    auto judge = [](double value, const std::string& op, double bound) {
      bool held = op == "<=" ? value <= bound : value >= bound;  // NaN never holds
      return held ? Verdict::kHeld : Verdict::kFailed;
    };
    auto add = [&](std::string name, std::string where, double value, double bound, std::string detail) {
      metric.criteria.push_back({std::move(name), std::move(where), value, "<= " + format_number(bound),
                                 judge(value, "<=", bound), std::move(detail)});
    };
    const std::string every = fmt::format("every point ({})", metric.points.size());
    add("mean abs ln(real/sim)", every, metric.mean_abs_log, bounds.mean_abs_log, "");
    add("max abs ln(real/sim)", every, metric.max_abs_log, bounds.max_abs_log, "");
    for (const auto& spec : input.spec.ratios) {
      auto pairs = ratio_pairs(input, spec);
      if (!pairs.ok()) return pairs.status();
      const std::string name = "ratio " + pair_text(spec) + ": abs(real/sim - 1)";
      if (!pairs->not_judged.empty()) {
        metric.criteria.push_back({name, "", NAN, "<= " + format_number(bounds.ratio_tolerance),
                                   Verdict::kNotJudged, pairs->not_judged});
        continue;
      }
      auto spec_columns = [&] {
        std::vector<size_t> columns;
        for (const std::string* text : {&spec.numerator, &spec.denominator, &spec.at}) {
          if (!text->empty()) columns.push_back(parse_selector(input, *text)->column);
        }
        return columns;
      }();
      const auto group = group_columns(input, spec_columns);
      for (auto [n, d] : pairs->pairs) {
        RatioResult r{pair_text(spec), group_text(input, group, n),
                      metric.points[n].sim / metric.points[d].sim,
                      metric.points[n].real_median / metric.points[d].real_median};
        add(name, r.group.empty() ? "the pair" : r.group, std::abs(r.difference()), bounds.ratio_tolerance,
            fmt::format("sim {:.3f}, real {:.3f} ({:+.1f}%)", r.sim, r.real, 100 * r.difference()));
        metric.ratios.push_back(std::move(r));
      }
    }
    metric.criteria.push_back(rank_criterion(metric.rank, bounds.rank_tau));
    report.metrics.push_back(std::move(metric));
  }
  report.input = std::move(input);
  return report;
}

std::string validation_verdict(const ValidationReport& report) {
  std::vector<std::string> failed;
  int not_judged = 0;
  for (const auto& m : report.metrics) {
    for (const auto& c : m.criteria) {
      if (c.verdict == Verdict::kFailed)
        failed.push_back(c.name + " (" + m.metric + (c.where.empty() ? "" : ", " + c.where) + ")");
      if (c.verdict == Verdict::kNotJudged) ++not_judged;
    }
  }
  if (!failed.empty()) return "**failed**: " + join(failed, "; ");
  return not_judged == 0 ? "held (every criterion)"
                         : fmt::format("held (every judged criterion; {} not judged)", not_judged);
}

std::string validation_markdown(const ValidationReport& report) {
  const ValidationInput& in = report.input;
  std::string out = "### " + in.scenario + ": sim against real\n\n";
  const std::vector<size_t> varying = varying_columns(in);
  std::vector<std::string> fixed_values, unset;
  for (size_t c = 0; c < in.column_names.size() && !in.points.empty(); ++c) {
    if (std::find(varying.begin(), varying.end(), c) != varying.end()) continue;
    const std::string& label = in.points.front().labels[c];
    if (label.empty() || label == "-1") {
      unset.push_back(in.column_names[c]);  // the study's "not set: its default" values
    } else {
      fixed_values.push_back(in.column_names[c] + " = " + label);
    }
  }
  if (!fixed_values.empty()) out += "Fixed: " + join(fixed_values) + ".";
  if (!unset.empty()) out += " Left at their defaults: " + join(unset) + ".";
  if (!fixed_values.empty() || !unset.empty()) out += "\n\n";
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
      row.insert(row.end(), {value_text(e.sim), value_text(e.real_median),
                             "[" + value_text(e.real_low) + ", " + value_text(e.real_high) + "]",
                             fixed(e.log_error, 4)});
      table.add(row);
    }
    out += table.str() + "\n";
    std::vector<std::string> header_row = kCriterionColumns;
    header_row[0] = "criterion (" + m.metric + ")";
    MarkdownTable verdict(header_row, "llrrll");
    for (const auto& c : m.criteria) verdict.add(criterion_cells(c));
    out += verdict.str() + "\n";
  }
  out += "Verdict: " + validation_verdict(report) + "\n";
  return out;
}

std::string validation_summary(const std::vector<StudyValidation>& studies, const std::string& title) {
  std::vector<std::string> header = {"run", "metric", "points"};
  header.insert(header.end(), kCriterionColumns.begin(), kCriterionColumns.end());
  MarkdownTable table(header, "llrllrrll");
  std::string verdicts;
  for (const auto& study : studies) {
    if (!study.report) {
      verdicts += "- " + study.study + ": **could not run**: " + study.problem + "\n";
      continue;
    }
    for (const auto& m : study.report->metrics) {
      for (const auto& c : m.criteria) {
        std::vector<std::string> row = {study.study, m.metric, std::to_string(m.points.size())};
        auto cells = criterion_cells(c);
        row.insert(row.end(), cells.begin(), cells.end());
        table.add(row);
      }
    }
    verdicts += "- " + study.study + ": " + validation_verdict(*study.report) +
                (study.problem.empty() ? "" : "; but " + study.problem) + "\n";
  }
  return "### perflab validate: " + title + "\n\n" + table.str() + "\n" + verdicts;
}

std::string validation_csv(const ValidationReport& report) {
  const ValidationInput& in = report.input;
  std::vector<std::string> header = in.column_names;
  for (const char* column : {"metric", "sim", "real_median", "real_low", "real_high", "log_error"})
    header.emplace_back(column);
  std::string out = csv_line(header);
  for (const auto& m : report.metrics) {
    for (size_t p = 0; p < m.points.size(); ++p) {
      const auto& e = m.points[p];
      std::vector<std::string> fields = in.points[p].columns;
      fields.push_back(m.metric);
      for (double v : {e.sim, e.real_median, e.real_low, e.real_high, e.log_error})
        fields.push_back(format_number(v));
      out += csv_line(fields);
    }
  }
  return out;
}

}  // namespace perflab
