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

// "12.3 [11.9, 12.7]": the mean and its 95% interval (the one way perflab writes an interval, as the
// renderer does: analysis/python/perflab_site/text.py) with the digits the interval needs; a count with no
// spread as a plain integer; tiny values (lock holds of nanoseconds) in three significant digits. When the
// runs do not spread (one run, or a half-width under a billionth of the mean) the mean alone.
std::string mean_with_interval(const stats::Summary& summary);

}  // namespace perflab
