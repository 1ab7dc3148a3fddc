// Quantities with units, as written in scenario files: "20ms", "64 KiB", "100MBps".
// parse_quantity turns such text into a plain double in base units (seconds, bytes, bytes/second);
// format_quantity turns a base-unit value back into text, for people or as a scenario file spells it, and
// format_number writes a plain number. The one home of number, size, rate and duration text in C++.
#pragma once

#include <string>
#include <string_view>

#include "models/common/status.h"

namespace perflab {

// What a number measures, and so which units it may carry. Values are always in base units.
enum class Quantity {
  kDuration,  // seconds; units ns us ms s
  kSize,      // bytes; units B KiB MiB GiB (binary) and KB MB GB (decimal)
  kRate,      // bytes per second; units bps Kbps Mbps Gbps (bits) and Bps KBps MBps GBps (bytes)
  kNumber,    // a plain number, no unit
};

// Whether a number without a unit is accepted for durations, sizes and rates.
enum class UnitRule {
  kRequired,        // scenario files: only 0 may omit its unit
  kPlainIsBaseUnit  // workload files: a plain number is in base units (seconds, bytes, bytes/second)
};

// "20ms" -> 0.02, "64 KiB" -> 65536, "100MBps" -> 1e8, "1Gbps" -> 1.25e8.
// Durations, sizes and rates must be finite and not negative. Whitespace around the number and the
// unit is allowed; numbers may be decimal or scientific ("1.5s", "2e-3 s").
Result<double> parse_quantity(std::string_view text, Quantity quantity, UnitRule rule = UnitRule::kRequired);

// Significant digits of format_number: 17 always read back as the same double.
inline constexpr int kExactDigits = 17;

// The shortest text of at most `significant_digits` digits ("%g" notation) that reads back as `value`:
// exactly with kExactDigits, the default ("0.1", "250", "1e-09": what CSVs and JSON hold), else within a
// relative 10^(1 - significant_digits). Whole numbers below 1e15 in full ("123456789012"), zero as "0",
// "nan", "inf" and "-inf" spelled out. Locale-independent.
std::string format_number(double value, int significant_digits = kExactDigits);

// How format_quantity writes a value.
enum class Spelling {
  // For people, with a space and at most 10 significant digits, so arbitrary values round trip to a
  // relative 1e-9: "20 ms", "64 KiB", "1 MB" (the shortest of binary, decimal and plain bytes), "100 MB/s".
  kReadable,
  // As a scenario file writes it (knob defaults, generated scenarios): durations in the largest unit not
  // above them, 10 significant digits ("50us", "15.625ms", "0ms"); sizes and rates exactly, in the
  // largest binary unit that divides them ("48MiB", "4120B", "48MiBps").
  kLiteral,
};

// Text that parse_quantity reads back ("3.5" for a plain number).
std::string format_quantity(double value, Quantity quantity, Spelling spelling = Spelling::kReadable);

// The name used in messages: "duration", "size", "rate", "number".
const char* quantity_name(Quantity quantity);

}  // namespace perflab
