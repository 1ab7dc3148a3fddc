// See markdown.h.
#include "sim/markdown.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/stats/stats.h"
#include "sim/value_format.h"

namespace perflab {

MarkdownTable::MarkdownTable(std::vector<std::string> header, std::string alignments)
    : header_(std::move(header)), alignments_(std::move(alignments)) {
  alignments_.resize(header_.size(), 'l');
}

void MarkdownTable::add(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::str() const {
  auto line = [](const std::vector<std::string>& cells) { return "| " + join(cells, " | ") + " |\n"; };
  std::string out = line(header_) + "|";
  for (char a : alignments_) out += a == 'r' ? "---:|" : a == 'c' ? ":---:|" : "---|";
  out += "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

namespace {

double half_width(const stats::Summary& s) {
  return (s.ci95_high - s.ci95_low) / 2;
}

}  // namespace

std::string mean_plus_minus(const stats::Summary& s, std::string_view mean_spec, std::string_view half_spec,
                            std::string_view alone_spec) {
  double half = half_width(s);
  if (s.n > 1 && half > 1e-9 * std::fabs(s.mean)) {
    return fmt::format(fmt::runtime(mean_spec), s.mean) + " ± " + fmt::format(fmt::runtime(half_spec), half);
  }
  return fmt::format(fmt::runtime(alone_spec.empty() ? mean_spec : alone_spec), s.mean);
}

std::string mean_with_interval(const stats::Summary& s) {
  double half = half_width(s);
  double magnitude = std::max(std::fabs(s.mean), half);
  if (magnitude > 0 && magnitude < 1e-3) return mean_plus_minus(s, "{:.3g}", "{:.2g}");
  if (s.min == s.max && s.mean == std::floor(s.mean) && std::fabs(s.mean) < 1e15)
    return format_number(s.mean);
  int decimals = 0;
  if (magnitude > 0)
    decimals = std::max(0, std::min(6, 2 - static_cast<int>(std::floor(std::log10(magnitude)))));
  if (half > 0) decimals = std::max(decimals, std::min(6, -static_cast<int>(std::floor(std::log10(half)))));
  std::string spec = fmt::format("{{:.{}f}}", decimals);
  return mean_plus_minus(s, spec, spec);
}

}  // namespace perflab
