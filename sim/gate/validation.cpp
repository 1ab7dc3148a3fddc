// See validation.h.
#include "sim/gate/validation.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/stats/median_interval.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace {

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

// The rank rule's criterion for one metric (docs/validation.md).
Criterion rank_criterion(const RankAgreement& rank, double bound) {
  Criterion c{"rank order: Kendall tau-b", "", NAN, ">= " + format_number(bound), Verdict::kNotJudged, ""};
  c.where = fmt::format("{} of {} pairs testable", rank.testable, rank.pairs);
  if (rank.testable < kMinTestablePairs) {
    c.detail = fmt::format(
        "order not testable: the sim separates {} pair(s) by more than the real 95% interval (needs {}); "
        "{}",
        rank.testable, kMinTestablePairs,
        rank.testable == 0 ? "every pair's order is within the real runs' noise"
                           : "the other pairs' order is within the real runs' noise");
    return c;
  }
  c.value = rank.tau;
  c.verdict = rank.tau >= bound ? Verdict::kHeld : Verdict::kFailed;
  c.detail = fmt::format("{} ordered as in the sim, {} the other way, {} tied in real", rank.concordant,
                         rank.discordant, rank.real_ties);
  return c;
}

}  // namespace

std::vector<size_t> varying_columns(const ValidationInput& in) {
  std::vector<size_t> varying;
  for (size_t c = 0; c < in.column_names.size(); ++c) {
    if (labels_of(in, c).size() > 1) varying.push_back(c);
  }
  return varying;
}

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
            // Significant digits: a ratio of 0.003 and one of 0.0037 must not both read "0.003".
            fmt::format("sim {}, real {} ({:+.1f}%)", format_number(r.sim, 4), format_number(r.real, 4),
                        100 * r.difference()));
        metric.ratios.push_back(std::move(r));
      }
    }
    metric.criteria.push_back(rank_criterion(metric.rank, bounds.rank_tau));
    report.metrics.push_back(std::move(metric));
  }
  report.input = std::move(input);
  return report;
}

}  // namespace perflab
