// Markdown for every report: a table built row by row, and a mean with its 95% interval as people read it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perflab {

namespace stats {
struct Summary;
}

class MarkdownTable {
 public:
  // One alignment per column: 'l' (text), 'r' (numbers) or 'c' (a mark); missing ones are 'l'.
  MarkdownTable(std::vector<std::string> header, std::string alignments);
  void add(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::string alignments_;
  std::vector<std::vector<std::string>> rows_;
};

// "12.3 ± 0.4" with the digits the interval needs; a count with no spread as a plain integer; tiny values
// (lock holds of nanoseconds) in scientific notation.
std::string mean_with_interval(const stats::Summary& summary);

// The same in fixed fmt specs, for a column that keeps one precision: ("{:.1f}", "{:.1f}") gives
// "116.6 ± 1.7", ("{:.4g}", "{:.2g}") "1.073 ± 0.00023". When the runs do not spread (one run, or a
// half-width under a billionth of the mean) the mean alone, in `alone_spec` if one is given.
std::string mean_plus_minus(const stats::Summary& summary, std::string_view mean_spec,
                            std::string_view half_spec, std::string_view alone_spec = {});

}  // namespace perflab
