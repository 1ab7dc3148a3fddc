// Quantities with units, as written in scenario files: "20ms", "64 KiB", "100MBps".
// parse_quantity turns such text into a plain double in base units (seconds, bytes, bytes/second);
// format_quantity turns a base-unit value back into a short text a person reads in tables and specs.
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

// Short human form that parse_quantity reads back: "20 ms", "64 KiB", "1 MB", "100 MB/s", "3.5".
// Keeps at most 10 significant digits, so arbitrary values round trip to a relative error of 1e-9.
std::string format_quantity(double value, Quantity quantity);

// The name used in messages: "duration", "size", "rate", "number".
const char* quantity_name(Quantity quantity);

}  // namespace perflab
