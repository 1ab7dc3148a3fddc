// The one-line row form shared by the child pipe and the resume journal: see row_codec.h.
#include "sim/runner/row_codec.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace perflab {
namespace {

constexpr const char* kOutcomeCodes[] = {"not-run", "ok", "failed", "timed-out"};

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    char next = text[++i];
    out += next == 'n' ? '\n' : next == 'r' ? '\r' : next;
  }
  return out;
}

}  // namespace

std::string encode_row(const RunRow& row) {
  std::string line = std::to_string(row.point) + " " + std::to_string(row.replication) + " " +
                     std::to_string(row.seed) + " " + kOutcomeCodes[static_cast<int>(row.outcome)];
  for (const auto& [name, value] : row.metrics) line += " " + name + "=" + number(value);
  for (double seconds : row.repetitions) line += " @rep=" + number(seconds);
  if (!row.error.empty()) line += " error=" + escape(row.error);
  return line + "\n";
}

std::optional<RunRow> decode_row(const std::string& line) {
  std::string head = line;
  std::string error;
  auto error_at = line.find(" error=");
  if (error_at != std::string::npos) {
    head = line.substr(0, error_at);
    error = unescape(line.substr(error_at + 7));
  }
  std::istringstream fields(head);
  RunRow row;
  std::string outcome;
  if (!(fields >> row.point >> row.replication >> row.seed >> outcome)) return std::nullopt;
  bool known = false;
  for (int code = 0; code < 4; ++code) {
    if (outcome == kOutcomeCodes[code]) {
      row.outcome = static_cast<Outcome>(code);
      known = true;
    }
  }
  if (!known) return std::nullopt;
  for (std::string token; fields >> token;) {
    auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0) return std::nullopt;
    auto value = parse_number(token.substr(eq + 1));
    if (!value) return std::nullopt;
    if (token.compare(0, eq, "@rep") == 0) {
      row.repetitions.push_back(*value);
    } else {
      row.metrics[token.substr(0, eq)] = *value;
    }
  }
  row.error = std::move(error);
  return row;
}

}  // namespace perflab
