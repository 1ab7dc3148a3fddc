// Reading scenarios/<study>/reference.csv: see reference.h.
#include "sim/gate/reference.h"

#include <cstdlib>
#include <fstream>

#include "models/common/utf8_bom.h"
#include "sim/gate/results_reader.h"
#include "sim/scenario/scenario.h"

namespace perflab {
namespace {

// The fields of a reference.csv line, surrounding spaces trimmed.
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields = split_csv_line(line);
  for (std::string& field : fields) {
    const size_t first = field.find_first_not_of(' ');
    field = first == std::string::npos ? "" : field.substr(first, field.find_last_not_of(' ') - first + 1);
  }
  return fields;
}

}  // namespace

Result<ReferenceTable> ReferenceTable::Load(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return Status::Error(file.string() + ": cannot read the reference table, expected a CSV file");
  ReferenceTable table;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    if (++line_number == 1) line = std::string(without_utf8_bom(line));
    if (line.empty() || line[0] == '#') continue;
    auto fields = split_fields(line);
    if (table.columns_.empty()) {
      table.columns_ = std::move(fields);
      continue;
    }
    if (fields.size() != table.columns_.size()) {
      return Status::Error(file.string() + ":" + std::to_string(line_number) + ": " +
                           std::to_string(fields.size()) + " fields, expected " +
                           std::to_string(table.columns_.size()) + " as in the header");
    }
    table.cells_.push_back(std::move(fields));
  }
  if (table.columns_.empty()) return Status::Error(file.string() + ": no header row, expected column names");
  return table;
}

Result<ReferenceTable> ReferenceTable::ForStudy(const std::string& study) {
  return Load(scenarios_dir() / study / "reference.csv");
}

std::optional<size_t> ReferenceTable::index(const std::string& column) const {
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (columns_[c] == column) return c;
  }
  return std::nullopt;
}

bool ReferenceTable::has_column(const std::string& column) const {
  return index(column).has_value();
}

const std::string& ReferenceTable::text(size_t row, const std::string& column) const {
  static const std::string kEmpty;
  auto c = index(column);
  return c && row < cells_.size() ? cells_[row][*c] : kEmpty;
}

std::optional<double> ReferenceTable::number(size_t row, const std::string& column) const {
  const std::string& cell = text(row, column);
  if (cell.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(cell.c_str(), &end);
  if (end != cell.c_str() + cell.size()) return std::nullopt;
  return value;
}

std::optional<size_t> ReferenceTable::find(const std::string& column, double value) const {
  for (size_t r = 0; r < cells_.size(); ++r) {
    if (number(r, column) == value) return r;
  }
  return std::nullopt;
}

std::optional<size_t> ReferenceTable::find(const std::string& column, const std::string& value) const {
  for (size_t r = 0; r < cells_.size(); ++r) {
    if (text(r, column) == value) return r;
  }
  return std::nullopt;
}

}  // namespace perflab
