// See check.h.
#include "sim/gate/check.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "sim/text/markdown.h"
#include "sim/runner/run_outputs.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace {

using Key = std::pair<std::vector<std::string>, uint64_t>;  // (point values, seed)

bool same_value(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

// (b − a) / max(|a|, |b|): 0 when equal (both zero, both NaN), ±inf when one side is NaN.
double relative_move(double a, double b) {
  if (same_value(a, b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return INFINITY;
  double scale = std::max(std::fabs(a), std::fabs(b));
  return std::isinf(scale) ? INFINITY : (b - a) / scale;
}

// Labels a point by the parameters that vary over both tables' points.
class PointNamer {
 public:
  PointNamer(const ResultRows& a, const ResultRows& b) : columns_(b.param_columns) {
    std::vector<std::set<std::string>> values(columns_.size());
    for (const auto* rows : {&a, &b}) {
      for (const auto& row : rows->rows) {
        for (size_t c = 0; c < columns_.size() && c < row.point.size(); ++c) values[c].insert(row.point[c]);
      }
    }
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (values[c].size() > 1) varying_.push_back(c);
    }
  }
  std::string operator()(const ResultRow& row) const {
    std::vector<std::string> parts;
    for (size_t c : varying_) parts.push_back(columns_[c] + "=" + row.labels[c]);
    return parts.empty() ? "(one point)" : join(parts);
  }

 private:
  std::vector<std::string> columns_;
  std::vector<size_t> varying_;
};

// Names, once each, the parameter changes that explain `b`'s points absent from `a`: for each such point,
// the `a` points that differ from it in the fewest columns, and those columns' values on both sides.
std::vector<std::string> explain_grid_change(const std::vector<std::string>& columns,
                                             const std::vector<std::vector<std::string>>& a_points,
                                             const std::vector<std::vector<std::string>>& unmatched,
                                             const std::string& a_name, const std::string& b_name) {
  std::map<std::pair<std::string, std::string>, std::set<std::string>> changes;  // (column, now) -> before
  for (const auto& point : unmatched) {
    size_t fewest = columns.size() + 1;
    std::vector<const std::vector<std::string>*> nearest;
    for (const auto& candidate : a_points) {
      size_t differ = 0;
      for (size_t c = 0; c < columns.size(); ++c) differ += candidate[c] != point[c];
      if (differ < fewest) nearest.clear();
      if (differ <= fewest) {
        fewest = differ;
        nearest.push_back(&candidate);
      }
    }
    for (const auto* candidate : nearest) {
      for (size_t c = 0; c < columns.size(); ++c) {
        if ((*candidate)[c] == point[c]) continue;
        changes[{columns[c], point[c]}].insert((*candidate)[c]);
      }
    }
  }
  std::vector<std::string> lines;
  for (const auto& [key, before] : changes) {
    const auto& [column, now] = key;
    std::vector<std::string> was(before.begin(), before.end());
    if (was.size() == 1) {
      lines.push_back(fmt::format("parameter {} changed from {} ({}) to {} ({})", column, was.front(), a_name,
                                  now, b_name));
    } else {
      lines.push_back(fmt::format("parameter {} = {} ({}) is not among the values of {} ({})", column, now,
                                  b_name, a_name, join(was)));
    }
  }
  if (lines.empty() && !unmatched.empty())
    lines.push_back(fmt::format("{} grid point(s) of {} are not in {}", unmatched.size(), b_name, a_name));
  return lines;
}

// `rows` with its points' values in the order of `columns` (a CSV may list its parameters in another order
// than a fresh run of the same scenario); an error names a parameter only one side has.
Result<ResultRows> aligned(const ResultRows& rows, const std::vector<std::string>& columns,
                           const std::string& rows_name, const std::string& columns_name) {
  if (rows.param_columns == columns) return rows;
  std::vector<size_t> from;
  for (const auto& column : columns) {
    auto it = std::find(rows.param_columns.begin(), rows.param_columns.end(), column);
    if (it == rows.param_columns.end())
      return Status::Error(
          fmt::format("parameter {} is new in {} (not in {})", column, columns_name, rows_name));
    from.push_back(static_cast<size_t>(it - rows.param_columns.begin()));
  }
  for (const auto& column : rows.param_columns) {
    if (std::find(columns.begin(), columns.end(), column) == columns.end())
      return Status::Error(
          fmt::format("parameter {} of {} is gone from {}", column, rows_name, columns_name));
  }
  ResultRows out = rows;
  out.param_columns = columns;
  for (auto& row : out.rows) {
    std::vector<std::string> point, labels;
    for (size_t c : from) {
      point.push_back(row.point[c]);
      labels.push_back(row.labels[c]);
    }
    row.point = std::move(point);
    row.labels = std::move(labels);
  }
  return out;
}

// `rows` with every parameter that only `newer` has and that is at one value in all of newer's rows,
// at that value (a knob added since `rows` was written); `notes` names each.
ResultRows with_new_constant_params(const ResultRows& rows, const ResultRows& newer,
                                    const std::string& newer_name, std::vector<std::string>& notes) {
  ResultRows out = rows;
  for (const auto& column : rows.param_columns) {  // only knobs added, none gone or renamed
    if (std::find(newer.param_columns.begin(), newer.param_columns.end(), column) ==
        newer.param_columns.end())
      return out;
  }
  for (size_t c = 0; c < newer.param_columns.size(); ++c) {
    const std::string& column = newer.param_columns[c];
    if (newer.rows.empty() ||
        std::find(rows.param_columns.begin(), rows.param_columns.end(), column) != rows.param_columns.end())
      continue;
    const ResultRow& first = newer.rows.front();
    const bool constant = std::all_of(newer.rows.begin(), newer.rows.end(), [&](const ResultRow& row) {
      return row.point[c] == first.point[c] && row.labels[c] == first.labels[c];
    });
    if (!constant) continue;
    out.param_columns.push_back(column);
    for (auto& row : out.rows) {
      row.point.push_back(first.point[c]);
      row.labels.push_back(first.labels[c]);
    }
    notes.push_back(
        fmt::format("parameter {} is new in {}, at \"{}\" in every run: compared as if the "
                    "other runs had it",
                    column, newer_name, first.labels[c]));
  }
  return out;
}

std::map<Key, const ResultRow*> index_rows(const ResultRows& rows) {
  std::map<Key, const ResultRow*> index;
  for (const auto& row : rows.rows) index[{row.point, row.seed}] = &row;
  return index;
}

constexpr size_t kFirstFew = 3;  // items of a long list that a report shows before "and N more"

using PointRows = std::map<std::vector<std::string>, std::vector<const ResultRow*>>;

std::set<uint64_t> seeds_of(const std::vector<const ResultRow*>& rows) {
  std::set<uint64_t> seeds;
  for (const auto* row : rows) seeds.insert(row->seed);
  return seeds;
}

// "1-5, 8" (consecutive seeds as ranges, the first few ranges only).
std::string seed_list(const std::set<uint64_t>& seeds) {
  std::vector<std::string> ranges;
  for (auto it = seeds.begin(); it != seeds.end();) {
    uint64_t first = *it, last = *it;
    while (++it != seeds.end() && *it == last + 1) last = *it;
    ranges.push_back(first == last ? std::to_string(first) : fmt::format("{}-{}", first, last));
  }
  return join_first(ranges, kFirstFew, ", ");
}

// The coverage lines of Comparison (see check.h), and how many rows both sides hold.
std::vector<std::string> coverage_of(const PointRows& a, const PointRows& b, const PointNamer& name,
                                     const std::string& a_name, const std::string& b_name, size_t& common) {
  std::vector<std::string> lines;
  auto lacking_points = [&](const PointRows& has, const PointRows& lacks, const std::string& has_name,
                            const std::string& lacks_name) {
    std::vector<std::string> absent;
    for (const auto& [point, rows] : has) {
      if (lacks.count(point) == 0) absent.push_back(name(*rows.front()));
    }
    if (!absent.empty())
      lines.push_back(fmt::format("{} lacks {} of {}'s {} points: {}", lacks_name, absent.size(), has_name,
                                  has.size(), join_first(absent, kFirstFew)));
  };
  lacking_points(a, b, a_name, b_name);
  lacking_points(b, a, b_name, a_name);

  // Seeds at the points both hold: one sentence when every point has the same seeds on each side.
  common = 0;
  std::optional<std::set<uint64_t>> a_uniform, b_uniform;
  bool uniform = true;
  std::vector<std::string> a_extra, b_extra;  // "point, seed s" rows only one side has
  size_t common_points = 0;
  for (const auto& [point, b_rows] : b) {
    auto it = a.find(point);
    if (it == a.end()) continue;
    ++common_points;
    auto sa = seeds_of(it->second), sb = seeds_of(b_rows);
    if (!a_uniform) a_uniform = sa, b_uniform = sb;
    uniform = uniform && sa == *a_uniform && sb == *b_uniform;
    for (uint64_t seed : sa) {
      if (sb.count(seed) != 0) ++common;
      else a_extra.push_back(fmt::format("{}, seed {}", name(*it->second.front()), seed));
    }
    for (uint64_t seed : sb) {
      if (sa.count(seed) == 0) b_extra.push_back(fmt::format("{}, seed {}", name(*b_rows.front()), seed));
    }
  }
  if (common_points > 0 && uniform && *a_uniform != *b_uniform) {
    std::set<uint64_t> shared;
    for (uint64_t seed : *a_uniform) {
      if (b_uniform->count(seed) != 0) shared.insert(seed);
    }
    if (shared == *b_uniform) {
      lines.push_back(fmt::format("{} has {} of {}'s {} seeds at every point ({}); compared on those", b_name,
                                  b_uniform->size(), a_name, a_uniform->size(), seed_list(shared)));
    } else if (shared == *a_uniform) {
      lines.push_back(fmt::format("{} has {} of {}'s {} seeds at every point ({}); compared on those", a_name,
                                  a_uniform->size(), b_name, b_uniform->size(), seed_list(shared)));
    } else {
      lines.push_back(fmt::format("{} has seeds {} and {} seeds {} at every point; compared on the {} both have",
                                  a_name, seed_list(*a_uniform), b_name, seed_list(*b_uniform), shared.size()));
    }
  } else {
    if (!a_extra.empty())
      lines.push_back(fmt::format("{} lacks {} of {}'s rows at the points both have: {}", b_name,
                                  a_extra.size(), a_name, join_first(a_extra, kFirstFew)));
    if (!b_extra.empty())
      lines.push_back(fmt::format("{} lacks {} of {}'s rows at the points both have: {}", a_name,
                                  b_extra.size(), b_name, join_first(b_extra, kFirstFew)));
  }
  if (!lines.empty()) {
    size_t a_total = 0, b_total = 0;
    for (const auto& [point, rows] : a) a_total += rows.size();
    for (const auto& [point, rows] : b) b_total += rows.size();
    lines.push_back(fmt::format("compared on the {} rows (point × seed) both have, of {} in {} and {} in {}",
                                common, a_total, a_name, b_total, b_name));
  }
  return lines;
}

Judgement judgement_of(const MetricSpec& metric, Engine engine) {
  if (metric.exact) return Judgement::kExact;
  return engine == Engine::kSim ? Judgement::kTolerance : Judgement::kNotJudged;
}

}  // namespace

double CheckRules::tolerance_for(const std::string& metric) const {
  auto it = per_metric.find(metric);
  return it == per_metric.end() ? tolerance : it->second;
}

Result<CheckRules> check_rules(const std::vector<MetricSpec>& metrics,
                               const std::map<std::string, double>& scenario_tolerances,
                               const std::vector<std::string>& flags) {
  CheckRules rules;
  rules.per_metric = scenario_tolerances;
  for (const auto& flag : flags) {
    auto eq = flag.find('=');
    std::string metric = eq == std::string::npos ? "" : flag.substr(0, eq);
    std::string text = eq == std::string::npos ? flag : flag.substr(eq + 1);
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(value >= 0)) {
      return Status::Error(
          "--tolerance " + flag +
          ": expected a relative tolerance >= 0, for every metric (1e-6) or one (duration_s=1e-6)");
    }
    if (metric.empty()) {
      rules.tolerance = value;
      rules.per_metric.clear();
      continue;
    }
    auto spec = std::find_if(metrics.begin(), metrics.end(), [&](const auto& m) { return m.name == metric; });
    if (spec == metrics.end()) {
      std::vector<std::string> names;
      for (const auto& m : metrics) names.push_back(m.name);
      return Status::Error("--tolerance " + flag + ": unknown metric \"" + metric +
                           "\", expected one of: " + join(names));
    }
    if (spec->exact) {
      return Status::Error("--tolerance " + flag + ": " + metric +
                           " is an exact count, compared exactly; a tolerance is for simulated times");
    }
    rules.per_metric[metric] = value;
  }
  return rules;
}

bool Comparison::pass() const {
  return missing.empty() && grid_changes.empty() && outcome_changes.empty() &&
         std::all_of(cells.begin(), cells.end(), [](const Cell& c) { return c.pass(); });
}

Comparison compare_rows(const ResultRows& a_as_read, const ResultRows& b,
                        const std::vector<MetricSpec>& metrics, Engine engine, const CheckRules& rules,
                        Scope scope, const std::string& a_name, const std::string& b_name) {
  Comparison result;
  auto a_rows =
      aligned(with_new_constant_params(a_as_read, b, b_name, result.notes), b.param_columns, a_name, b_name);
  if (!a_rows.ok()) {
    result.grid_changes.push_back(a_rows.status().message());
    return result;
  }
  const ResultRows& a = *a_rows;
  PointNamer name(a, b);
  auto a_index = index_rows(a);
  auto b_index = index_rows(b);

  // Grid points (in b's order, then a's), and those only one side has.
  std::vector<std::vector<std::string>> points;
  PointRows b_rows_of, a_rows_of;
  for (const auto& row : b.rows) {
    if (b_rows_of[row.point].empty()) points.push_back(row.point);
    b_rows_of[row.point].push_back(&row);
  }
  for (const auto& row : a.rows) a_rows_of[row.point].push_back(&row);
  std::vector<std::vector<std::string>> only_b, only_a;
  for (const auto& point : points) {
    if (a_rows_of.count(point) == 0) only_b.push_back(point);
  }
  for (const auto& [point, rows] : a_rows_of) {
    if (b_rows_of.count(point) == 0) only_a.push_back(point);
  }
  // b's new points are explained by a's points that b lacks (all of a's if it lacks none).
  if (!only_b.empty()) {
    std::vector<std::vector<std::string>> candidates = only_a;
    if (candidates.empty()) {
      for (const auto& [point, rows] : a_rows_of) candidates.push_back(point);
    }
    result.grid_changes = explain_grid_change(b.param_columns, candidates, only_b, a_name, b_name);
  } else if (scope == Scope::kSame && !only_a.empty()) {
    std::vector<std::string> dropped;
    for (const auto& point : only_a) dropped.push_back(name(*a_rows_of[point].front()));
    result.grid_changes.push_back(fmt::format("{} grid point(s) of {} are not in {}: {}", only_a.size(),
                                              a_name, b_name, join_first(dropped, kFirstFew)));
  }
  result.coverage = coverage_of(a_rows_of, b_rows_of, name, a_name, b_name, result.common_rows);
  if (scope == Scope::kCommon && result.common_rows > 0) result.grid_changes.clear();

  // Seeds of shared points, row by row.
  auto missing_side = [&](const ResultRow& row, const std::string& side) {
    result.missing.push_back({name(row), row.seed, side});
  };
  for (const auto& point : points) {
    if (a_rows_of.count(point) == 0) continue;
    if (scope == Scope::kCommon) continue;
    for (const auto* row : b_rows_of[point]) {
      if (a_index.count({row->point, row->seed}) == 0) missing_side(*row, a_name);
    }
    if (scope == Scope::kSame) {
      for (const auto* row : a_rows_of[point]) {
        if (b_index.count({row->point, row->seed}) == 0) missing_side(*row, b_name);
      }
    }
  }

  for (const auto& point : points) {
    if (a_rows_of.count(point) == 0) continue;
    const ResultRow& first = *b_rows_of[point].front();
    for (const auto& metric : metrics) {
      Cell cell;
      cell.point = name(first);
      cell.metric = metric.name;
      cell.judgement = judgement_of(metric, engine);
      cell.tolerance = cell.judgement == Judgement::kTolerance ? rules.tolerance_for(metric.name) : 0;
      double sum_a = 0, sum_b = 0;
      for (const auto* now : b_rows_of[point]) {
        auto before = a_index.find({now->point, now->seed});
        if (before == a_index.end()) continue;
        const ResultRow& was = *before->second;
        if (was.ok() != now->ok()) {
          if (&metric == &metrics.front()) {
            result.outcome_changes.push_back(fmt::format("{}, seed {}: {} ({}), {} ({})", cell.point,
                                                         now->seed, was.ok() ? "ok" : was.error, a_name,
                                                         now->ok() ? "ok" : now->error, b_name));
          }
          continue;
        }
        if (!now->ok()) continue;
        auto va = was.metrics.find(metric.name);
        auto vb = now->metrics.find(metric.name);
        if (va == was.metrics.end() || vb == now->metrics.end()) continue;
        double move = relative_move(va->second, vb->second);
        bool beyond = cell.judgement == Judgement::kExact       ? !same_value(va->second, vb->second)
                      : cell.judgement == Judgement::kTolerance ? !(std::fabs(move) <= cell.tolerance)
                                                                : false;
        ++cell.seeds;
        cell.moved += beyond;
        sum_a += va->second;
        sum_b += vb->second;
        if (cell.seeds == 1 || std::fabs(move) > std::fabs(cell.largest)) {
          cell.largest = move;
          cell.largest_seed = now->seed;
          cell.a_at_largest = va->second;
          cell.b_at_largest = vb->second;
        }
      }
      if (cell.seeds == 0) continue;
      cell.mean_a = sum_a / static_cast<double>(cell.seeds);
      cell.mean_b = sum_b / static_cast<double>(cell.seeds);
      if (cell.judgement == Judgement::kExact) result.exact_values += cell.seeds;
      if (cell.judgement == Judgement::kTolerance) result.tolerance_values += cell.seeds;
      result.cells.push_back(cell);
    }
  }
  return result;
}

std::vector<ClaimVerdict> judge_claims(const RunTable& before, const RunTable& now) {
  const Study& study = *now.scenario->study;
  if (!study.claims) return {};
  std::map<std::string, double> was;
  for (const auto& claim : study.claims(before)) was[claim.name] = claim.value;
  std::vector<ClaimVerdict> verdicts;
  for (const auto& claim : study.claims(now)) {
    auto it = was.find(claim.name);
    verdicts.push_back({claim, it == was.end() ? NAN : it->second});
  }
  return verdicts;
}

bool CheckResult::pass() const {
  return values.pass() && failed_runs.empty() &&
         std::all_of(claims.begin(), claims.end(), [](const ClaimVerdict& v) { return v.holds(); });
}

CheckResult check_scenario(const ResultRows& committed, const RunTable& committed_table,
                           const RunTable& fresh, const CheckRules& rules, Scope scope) {
  const Scenario& scenario = *fresh.scenario;
  CheckResult result;
  result.values = compare_rows(committed, result_rows(fresh), scenario.study->metrics_for(scenario.engine),
                               scenario.engine, rules, scope, "committed", "now");
  result.claims = judge_claims(committed_table, fresh);
  for (const auto& row : fresh.rows) {
    if (row.failed()) {
      result.failed_runs.push_back(
          fmt::format("{}, seed {}: {}", point_label(scenario, row.point), row.seed, row.error));
    }
  }
  return result;
}

std::string tolerance_text(const Cell& cell) {
  switch (cell.judgement) {
    case Judgement::kExact:
      return "exact";
    case Judgement::kTolerance:
      return fmt::format("{:g} relative", cell.tolerance);
    case Judgement::kNotJudged:
      return "timing: claims only";
  }
  return "";
}

std::string relative_text(double relative) {
  if (relative == 0) return "0";
  if (std::isinf(relative)) return relative > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.3g}%", relative * 100);
}

std::string failure_table(const std::string& scenario, const CheckResult& result) {
  std::string out;
  for (const auto& change : result.values.grid_changes) out += fmt::format("- {}: {}\n", scenario, change);
  MarkdownTable table({"scenario", "metric", "moved", "largest move", "at", "committed", "now", "tolerance"},
                      "llrrlrrl");
  auto row = [&](const std::string& what, const std::string& moved, const std::string& largest,
                 const std::string& at, const std::string& committed, const std::string& now,
                 const std::string& rule) {
    table.add({scenario, what, moved, largest, at, committed, now, rule});
  };
  // Per metric: every point's cells folded into one line, shown at the seed that moved most.
  std::map<std::string, Cell> worst;
  std::map<std::string, std::pair<size_t, size_t>> counts;  // metric -> (moved, compared)
  std::vector<std::string> order;
  for (const auto& cell : result.values.cells) {
    auto& [moved, compared] = counts[cell.metric];
    if (compared == 0) order.push_back(cell.metric);
    moved += cell.moved;
    compared += cell.seeds;
    auto it = worst.find(cell.metric);
    if (cell.moved > 0 && (it == worst.end() || std::fabs(cell.largest) > std::fabs(it->second.largest)))
      worst[cell.metric] = cell;
  }
  for (const auto& metric : order) {
    const auto& [moved, compared] = counts[metric];
    if (moved == 0) continue;
    const Cell& cell = worst[metric];
    row(metric, fmt::format("{} of {}", moved, compared), relative_text(cell.largest),
        fmt::format("{}, seed {}", cell.point, cell.largest_seed), format_number(cell.a_at_largest),
        format_number(cell.b_at_largest), tolerance_text(cell));
  }
  constexpr size_t kListed = 10;
  for (size_t i = 0; i < result.values.missing.size() && i < kListed; ++i) {
    const auto& m = result.values.missing[i];
    row("(row)", "missing", "", fmt::format("{}, seed {}", m.point, m.seed),
        m.absent_from == "committed" ? "missing" : "", m.absent_from == "now" ? "missing" : "", "paired");
  }
  if (result.values.missing.size() > kListed) {
    row("(row)", fmt::format("{} more missing", result.values.missing.size() - kListed), "", "", "", "",
        "paired");
  }
  for (const auto& change : result.values.outcome_changes)
    row("(outcome)", "changed", "", change, "", "", "paired");
  for (const auto& v : result.claims) {
    if (v.holds()) continue;
    row(v.claim.name, "claim", "", "", std::isnan(v.before) ? "—" : fmt::format("{:.4g}", v.before),
        fmt::format("{:.4g}", v.claim.value), fmt::format("[{:.4g}, {:.4g}]", v.claim.low, v.claim.high));
  }
  for (const auto& failed : result.failed_runs) row("(run)", "failed", "", failed, "", "", "runs");
  if (!table.empty()) out += table.str();
  return out;
}

}  // namespace perflab
