// See markdown.h.
#include "sim/text/markdown.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/stats/stats.h"
#include "sim/text/value_format.h"

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

// Whether the runs spread: more than one, and a half-width over a billionth of the mean.
bool spreads(const stats::Summary& s) {
  return s.n > 1 && (s.ci95_high - s.ci95_low) / 2 > 1e-9 * std::fabs(s.mean);
}

// The mean and its interval in one fmt spec, or the mean alone when the runs do not spread.
std::string interval_text(const stats::Summary& s, std::string_view spec) {
  std::string mean = fmt::format(fmt::runtime(spec), s.mean);
  if (!spreads(s)) return mean;
  return mean + " [" + fmt::format(fmt::runtime(spec), s.ci95_low) + ", " +
         fmt::format(fmt::runtime(spec), s.ci95_high) + "]";
}

}  // namespace

std::string mean_with_interval(const stats::Summary& s) {
  double half = spreads(s) ? (s.ci95_high - s.ci95_low) / 2 : 0.0;
  double magnitude = std::max(std::fabs(s.mean), half);
  if (magnitude > 0 && magnitude < 1e-3) return interval_text(s, "{:.3g}");
  if (s.min == s.max && s.mean == std::floor(s.mean) && std::fabs(s.mean) < 1e15)
    return format_number(s.mean);
  int decimals = 0;
  if (magnitude > 0)
    decimals = std::max(0, std::min(6, 2 - static_cast<int>(std::floor(std::log10(magnitude)))));
  if (half > 0) decimals = std::max(decimals, std::min(6, -static_cast<int>(std::floor(std::log10(half)))));
  std::string spec = fmt::format("{{:.{}f}}", decimals);
  return interval_text(s, spec);
}

}  // namespace perflab
