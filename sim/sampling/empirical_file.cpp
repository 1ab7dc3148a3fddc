// read_empirical_values on top of Ben Strasser's CSV parser (libfccp). The parser reports problems by
// throwing; they are all caught here and turned into a Status.
#include "sim/sampling/empirical_file.h"

#include <optional>
#include <string>
#include <string_view>

// The parser copies file names with strncpy into fixed buffers, which GCC's optimizer warns about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

namespace perflab {
namespace {

using OneColumnReader = io::CSVReader<1, io::trim_chars<' ', '\t', '\r'>, io::double_quote_escape<',', '"'>,
                                      io::throw_on_overflow>;

// The first line's text when it is a value rather than a column name (it starts as a number does), so a
// file of values only, without a header, loses none of them.
std::optional<std::string> first_line_value(const char* line) {
  if (line == nullptr) return std::nullopt;
  std::string text(line);
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos || text.find(',') != std::string::npos) return std::nullopt;
  text = text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
  if (std::string_view("0123456789+-.").find(text[0]) == std::string_view::npos) return std::nullopt;
  return text;
}

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
    std::vector<double> values;
    auto add = [&](const std::string& cell, int line) -> Status {
      const std::string where = name + ":" + std::to_string(line) + ": ";
      Result<double> value = parse_quantity(cell, quantity, UnitRule::kPlainIsBaseUnit);
      if (!value.ok()) return value.status().with_context(where);
      if (*value < 0) return Status::Error(where + "\"" + cell + "\": expected a value >= 0");
      values.push_back(*value);
      return Status::OK();
    };
    const char* first_line = reader.next_line();
    if (std::optional<std::string> value = first_line_value(first_line)) {
      if (Status added = add(*value, 1); !added.ok()) return added;
    } else if (std::string problem = header_problem(first_line); !problem.empty()) {
      return Status::Error(name + ":1: " + problem);
    }
    reader.set_header("value");

    std::string cell;
    while (reader.read_row(cell)) {
      if (cell.empty()) continue;
      if (Status added = add(cell, static_cast<int>(reader.get_file_line())); !added.ok()) return added;
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
