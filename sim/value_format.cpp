#include "sim/value_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace perflab {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string join_first(const std::vector<std::string>& items, size_t shown, const std::string& separator) {
  if (items.size() <= shown) return join(items, separator);
  std::vector<std::string> first(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(shown));
  return join(first, separator) + " and " + std::to_string(items.size() - shown) + " more";
}

}  // namespace perflab
