// Unit tables, the number scanner and the number text behind parse_quantity, format_quantity and
// format_number.
// A unit converts to base units by value * multiply / divide; keeping the divisor separate makes
// "20ms" exactly the double 0.02 (20 / 1000 rounds once) rather than 20 * 0.001.
#include "sim/sampling/units.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "sim/sampling/spec_syntax.h"

namespace perflab {
namespace {

constexpr int kReadableDigits = 10;  // format_quantity's readable spelling

struct Unit {
  std::string_view name;
  double multiply;
  double divide;
};

const std::vector<Unit>& units_of(Quantity quantity) {
  static const std::vector<Unit> kDurationUnits = {
      {"ns", 1, 1e9}, {"us", 1, 1e6}, {"ms", 1, 1e3}, {"s", 1, 1}};
  static const std::vector<Unit> kSizeUnits = {{"B", 1, 1},
                                               {"KiB", 1024, 1},
                                               {"MiB", 1024.0 * 1024, 1},
                                               {"GiB", 1024.0 * 1024 * 1024, 1},
                                               {"KB", 1e3, 1},
                                               {"MB", 1e6, 1},
                                               {"GB", 1e9, 1}};
  static const std::vector<Unit> kRateUnits = {{"bps", 1, 8},
                                               {"Kbps", 1e3, 8},
                                               {"Mbps", 1e6, 8},
                                               {"Gbps", 1e9, 8},
                                               {"Bps", 1, 1},
                                               {"KBps", 1e3, 1},
                                               {"MBps", 1e6, 1},
                                               {"GBps", 1e9, 1},
                                               {"KiBps", 1024, 1},
                                               {"MiBps", 1024.0 * 1024, 1},
                                               {"GiBps", 1024.0 * 1024 * 1024, 1},
                                               {"B/s", 1, 1},
                                               {"KB/s", 1e3, 1},
                                               {"MB/s", 1e6, 1},
                                               {"GB/s", 1e9, 1},
                                               {"KiB/s", 1024, 1},
                                               {"MiB/s", 1024.0 * 1024, 1},
                                               {"GiB/s", 1024.0 * 1024 * 1024, 1}};
  static const std::vector<Unit> kNoUnits;
  switch (quantity) {
    case Quantity::kDuration:
      return kDurationUnits;
    case Quantity::kSize:
      return kSizeUnits;
    case Quantity::kRate:
      return kRateUnits;
    case Quantity::kNumber:
      break;
  }
  return kNoUnits;
}

std::string unit_list(Quantity quantity) {
  std::string list;
  for (const Unit& unit : units_of(quantity)) {
    if (!list.empty()) list += ", ";
    list += unit.name;
  }
  return list;
}

const char* example_of(Quantity quantity) {
  switch (quantity) {
    case Quantity::kDuration:
      return "20ms";
    case Quantity::kSize:
      return "64KiB";
    case Quantity::kRate:
      return "100MBps";
    case Quantity::kNumber:
      break;
  }
  return "3";
}

// The largest value a quantity may take. Every size, duration and rate is a double: a byte count beyond
// 2^53 is no longer exact, and a simulated clock past ~10^9 s loses its sub-microsecond steps (a latency
// of 1e308 s stalls SimGrid forever). Rates have no limit but being finite.
struct Largest {
  double value;
  const char* why;
};

const Largest* largest_of(Quantity quantity) {
  static const Largest kSize{9007199254740992.0, "2^53 bytes, the most a double counts exactly"};
  static const Largest kDuration{1e9, "about 31 years; beyond it the simulated clock loses its microseconds"};
  switch (quantity) {
    case Quantity::kSize:
      return &kSize;
    case Quantity::kDuration:
      return &kDuration;
    case Quantity::kRate:
    case Quantity::kNumber:
      break;
  }
  return nullptr;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Length of the leading decimal or scientific number in `text` (sign included), 0 if there is none.
size_t number_length(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits = 0;
  while (i < text.size() && is_digit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < text.size() && is_digit(text[j])) {
      while (j < text.size() && is_digit(text[j])) ++j;
      i = j;
    }
  }
  return i;
}

std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::string format_in(double value, const Unit& unit, Spelling spelling) {
  const double in_unit = value * unit.divide / unit.multiply;
  const char* separator = spelling == Spelling::kLiteral ? "" : " ";
  return format_number(in_unit, kReadableDigits) + separator + std::string(unit.name);
}

// `value` in the largest of the named units that divides it exactly, in full: a literal that reads back as
// the same double ("48MiB", "4120B"); the last unit when none larger does.
std::string in_exact_unit(double value, Quantity quantity,
                          std::initializer_list<std::string_view> largest_first) {
  const Unit* chosen = nullptr;
  for (std::string_view name : largest_first) {
    for (const Unit& unit : units_of(quantity)) {
      if (unit.name == name) chosen = &unit;
    }
    const double base = chosen->multiply / chosen->divide;
    if (value != 0 && std::fmod(value, base) == 0) break;
  }
  return format_number(value * chosen->divide / chosen->multiply) + std::string(chosen->name);
}

// The largest of the named units that is not larger than |value|, or the first one.
const Unit& largest_unit_below(double value, Quantity quantity,
                               std::initializer_list<std::string_view> names) {
  const std::vector<Unit>& units = units_of(quantity);
  const Unit* chosen = nullptr;
  for (std::string_view name : names) {
    for (const Unit& unit : units) {
      if (unit.name != name) continue;
      if (chosen == nullptr || unit.multiply / unit.divide <= std::fabs(value)) chosen = &unit;
    }
  }
  return *chosen;
}

}  // namespace

const char* quantity_name(Quantity quantity) {
  switch (quantity) {
    case Quantity::kDuration:
      return "duration";
    case Quantity::kSize:
      return "size";
    case Quantity::kRate:
      return "rate";
    case Quantity::kNumber:
      break;
  }
  return "number";
}

Result<double> parse_quantity(std::string_view text, Quantity quantity, UnitRule rule) {
  const std::string_view trimmed = trim(text);
  const std::string name = quantity_name(quantity);
  const bool has_units = quantity != Quantity::kNumber;
  const std::string where = quoted(text) + ": ";

  const size_t length = number_length(trimmed);
  if (length == 0) {
    if (!has_units) return Status::Error(where + "expected a plain number, e.g. \"3\" or \"2.5e3\"");
    return Status::Error(where + "expected a number followed by a " + name + " unit (one of " +
                         unit_list(quantity) + "), e.g. \"" + example_of(quantity) + "\"");
  }
  std::string_view number = trimmed.substr(0, length);
  const bool negative = number.front() == '-';
  if (number.front() == '+' || number.front() == '-') number.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc() || end != number.data() + number.size()) {
    return Status::Error(where + "number out of range");
  }
  if (negative) value = -value;
  if (value == 0) value = 0;  // turns -0 into 0

  const std::string_view unit_text = trim(trimmed.substr(length));
  if (unit_text.empty()) {
    if (has_units && value != 0 && rule == UnitRule::kRequired) {
      return Status::Error(where + "missing " + name + " unit, expected one of " + unit_list(quantity) +
                           " (only 0 may be written without a unit)");
    }
  } else if (!has_units) {
    return Status::Error(where + "expected a plain number without a unit, got unit " + quoted(unit_text));
  } else {
    const Unit* found = nullptr;
    for (const Unit& unit : units_of(quantity)) {
      if (unit.name == unit_text) found = &unit;
    }
    if (found == nullptr) {
      return Status::Error(where + "unknown " + name + " unit " + quoted(unit_text) + ", expected one of " +
                           unit_list(quantity));
    }
    value = value * found->multiply / found->divide;
  }

  if (!std::isfinite(value)) return Status::Error(where + "number out of range");
  if (has_units && value < 0) {
    return Status::Error(where + "a " + name + " cannot be negative, expected a value >= 0");
  }
  if (const Largest* most = largest_of(quantity); most != nullptr && value > most->value) {
    return Status::Error(where + "too large, expected a " + name + " of at most " +
                         format_quantity(most->value, quantity) + " (" + most->why + ")");
  }
  return value;
}

std::string format_number(double value, int significant_digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  char buffer[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 0);
    return std::string(buffer, written.ptr);
  }
  const double tolerance = significant_digits >= kExactDigits ? 0 : std::pow(10.0, 1 - significant_digits);
  std::string text;
  for (int precision = 1; precision <= std::min(significant_digits, kExactDigits); ++precision) {
    const auto written =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, precision);
    text.assign(buffer, written.ptr);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    if (std::fabs(back - value) <= tolerance * std::fabs(value)) break;
  }
  return text;
}

std::string format_quantity(double value, Quantity quantity, Spelling spelling) {
  if (!std::isfinite(value)) return format_number(value);
  if (spelling == Spelling::kLiteral) {
    switch (quantity) {
      case Quantity::kDuration:  // 0 as the scenario files write it
        return value == 0
                   ? "0ms"
                   : format_in(value, largest_unit_below(value, quantity, {"ns", "us", "ms", "s"}), spelling);
      case Quantity::kSize:
        return in_exact_unit(value, quantity, {"GiB", "MiB", "KiB", "B"});
      case Quantity::kRate:
        return in_exact_unit(value, quantity, {"GiBps", "MiBps", "KiBps", "Bps"});
      case Quantity::kNumber:
        return format_number(value);
    }
  }
  if (value == 0 && quantity != Quantity::kNumber) {
    return "0 " + std::string(quantity == Quantity::kDuration ? "s"
                              : quantity == Quantity::kSize   ? "B"
                                                              : "B/s");
  }
  switch (quantity) {
    case Quantity::kDuration:
      return format_in(value, largest_unit_below(value, quantity, {"ns", "us", "ms", "s"}), spelling);
    case Quantity::kSize: {
      // The shortest of binary, decimal and plain bytes, preferring binary:
      // 65536 -> "64 KiB", 1e6 -> "1 MB", 4120 -> "4120 B".
      std::string shortest =
          format_in(value, largest_unit_below(value, quantity, {"B", "KiB", "MiB", "GiB"}), spelling);
      for (const std::string& other :
           {format_in(value, largest_unit_below(value, quantity, {"B", "KB", "MB", "GB"}), spelling),
            format_number(value, kReadableDigits) + " B"}) {
        if (other.size() < shortest.size()) shortest = other;
      }
      return shortest;
    }
    case Quantity::kRate:
      return format_in(value, largest_unit_below(value, quantity, {"B/s", "KB/s", "MB/s", "GB/s"}), spelling);
    case Quantity::kNumber:
      break;
  }
  return format_number(value, kReadableDigits);
}

}  // namespace perflab
