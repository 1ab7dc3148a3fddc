// How a knob's default is written in a scenario file; see knobs.h.
#include "sim/knobs.h"

#include <cmath>

#include <fmt/format.h>

namespace perflab {
namespace {

struct Unit {
  const char* name;
  double base;  // base units in one of this unit
};

// `value` in the largest unit that divides it exactly, the first unit when none does.
std::string in_exact_unit(double value, std::initializer_list<Unit> largest_first, const char* suffix) {
  const Unit* chosen = nullptr;
  for (const Unit& unit : largest_first) {
    chosen = &unit;
    if (value != 0 && std::fmod(value, unit.base) == 0) break;
  }
  return format_number(value / chosen->base) + chosen->name + suffix;
}

}  // namespace

std::string size_literal(double bytes) {
  return in_exact_unit(bytes, {{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}, "");
}

std::string rate_literal(double bytes_per_second) {
  return in_exact_unit(bytes_per_second, {{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}},
                       "ps");
}

std::string duration_literal(double seconds) {
  if (seconds == 0) return "0ms";
  for (const Unit& unit : {Unit{"s", 1}, Unit{"ms", 1e-3}, Unit{"us", 1e-6}}) {
    if (seconds >= unit.base) return fmt::format("{:.10g}{}", seconds / unit.base, unit.name);
  }
  return fmt::format("{:.10g}ns", seconds / 1e-9);
}

std::string toml_string_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (const auto& item : items) text += (text.size() > 1 ? ", \"" : "\"") + item + "\"";
  return text + "]";
}

}  // namespace perflab
