// read_empirical_values on top of Ben Strasser's CSV parser (libfccp). The parser reports problems by
// throwing; they are all caught here and turned into a Status.
#include "sim/sampling/empirical_file.h"

#include <string>

// The parser copies file names with strncpy into fixed buffers, which GCC's optimizer warns about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

namespace perflab {
namespace {

using OneColumnReader = io::CSVReader<1, io::trim_chars<' ', '\t', '\r'>, io::double_quote_escape<',', '"'>,
                                      io::throw_on_overflow>;

std::string header_problem(const char* header) {
  if (header == nullptr) return "empty file, expected a header row and then one value per line";
  if (std::string(header).find(',') != std::string::npos) {
    return "the header has more than one column, expected a single column of values";
  }
  return "";
}

}  // namespace

Result<std::vector<double>> read_empirical_values(const std::filesystem::path& file, Quantity quantity) {
  const std::string name = file.string();
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    return Status::Error(name +
                         ": cannot read the empirical distribution file, expected an existing CSV file");
  }
  try {
    OneColumnReader reader(name);
    if (std::string problem = header_problem(reader.next_line()); !problem.empty()) {
      return Status::Error(name + ":1: " + problem);
    }
    reader.set_header("value");

    std::vector<double> values;
    std::string cell;
    while (reader.read_row(cell)) {
      if (cell.empty()) continue;
      const std::string where = name + ":" + std::to_string(reader.get_file_line()) + ": ";
      Result<double> value = parse_quantity(cell, quantity, UnitRule::kPlainIsBaseUnit);
      if (!value.ok()) return value.status().with_context(where);
      if (*value < 0) return Status::Error(where + "\"" + cell + "\": expected a value >= 0");
      values.push_back(*value);
    }
    if (values.empty()) {
      return Status::Error(name + ":" + std::to_string(reader.get_file_line() + 1) +
                           ": no values after the header, expected one value per line");
    }
    return values;
  } catch (const io::error::too_many_columns& e) {
    return Status::Error(name + ":" + std::to_string(e.file_line) +
                         ": more than one column, expected one value per line");
  } catch (const io::error::base& e) {
    return Status::Error(name + ": " + e.what());
  } catch (const std::exception& e) {
    return Status::Error(name + ": cannot read the file: " + e.what());
  }
}

}  // namespace perflab
