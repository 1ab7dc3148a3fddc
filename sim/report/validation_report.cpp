// See validation_report.h.
#include "sim/report/validation_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/text/markdown.h"
#include "sim/study/params.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace {

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

}  // namespace

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
    if (is_unset_label(label)) {
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
