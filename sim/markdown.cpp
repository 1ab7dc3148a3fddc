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
  for (char a : alignments_) out += a == 'r' ? "---:|" : "---|";
  out += "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

std::string mean_with_interval(const stats::Summary& s) {
  double half = (s.ci95_high - s.ci95_low) / 2;
  double magnitude = std::max(std::fabs(s.mean), half);
  bool spread = s.n > 1 && half > 1e-9 * std::fabs(s.mean);
  if (magnitude > 0 && magnitude < 1e-3) {
    return spread ? fmt::format("{:.3g} ± {:.2g}", s.mean, half) : fmt::format("{:.3g}", s.mean);
  }
  if (s.min == s.max && s.mean == std::floor(s.mean) && std::fabs(s.mean) < 1e15)
    return format_number(s.mean);
  int decimals = 0;
  if (magnitude > 0)
    decimals = std::max(0, std::min(6, 2 - static_cast<int>(std::floor(std::log10(magnitude)))));
  if (half > 0) decimals = std::max(decimals, std::min(6, -static_cast<int>(std::floor(std::log10(half)))));
  return spread ? fmt::format("{:.{}f} ± {:.{}f}", s.mean, decimals, half, decimals)
                : fmt::format("{:.{}f}", s.mean, decimals);
}

}  // namespace perflab
