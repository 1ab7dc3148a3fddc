// The numbers a seed published (a PR's or ticket's own table), kept once per study as data:
// scenarios/<study>/reference.csv. The C++ headline report, the plot scripts, the regression gate and the
// notebooks all read this one file, so a published number is never typed twice.
// Format: a header row of column names, then rows of numbers or plain text (no quoting); `#` starts a
// comment line that says where the numbers come from.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

class ReferenceTable {
 public:
  static Result<ReferenceTable> Load(const std::filesystem::path& file);
  // scenarios/<study>/reference.csv under scenarios_dir().
  static Result<ReferenceTable> ForStudy(const std::string& study);

  const std::vector<std::string>& columns() const { return columns_; }
  size_t rows() const { return cells_.size(); }
  bool has_column(const std::string& column) const;
  // The cell's text ("" for an unknown column).
  const std::string& text(size_t row, const std::string& column) const;
  // The cell as a number, or nothing if the column is unknown or the cell is empty or not a number.
  std::optional<double> number(size_t row, const std::string& column) const;
  // The first row whose `column` equals `value` (as a number).
  std::optional<size_t> find(const std::string& column, double value) const;
  // The first row whose `column` has text `value`.
  std::optional<size_t> find(const std::string& column, const std::string& value) const;

 private:
  std::optional<size_t> index(const std::string& column) const;
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> cells_;
};

}  // namespace perflab
