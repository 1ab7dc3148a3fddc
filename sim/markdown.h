// Markdown for every report: a table built row by row, and a mean with its 95% interval as people read it.
#pragma once

#include <string>
#include <vector>

namespace perflab {

namespace stats {
struct Summary;
}

class MarkdownTable {
 public:
  // One alignment per column: 'l' (text) or 'r' (numbers).
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

}  // namespace perflab
