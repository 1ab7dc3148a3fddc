// split_spec: one pass over the text, no nesting (no argument contains parentheses).
#include "sim/sampling/spec_syntax.h"

namespace perflab {

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

namespace {

bool is_identifier(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !digit) return false;
  }
  return !(text.front() >= '0' && text.front() <= '9');
}

}  // namespace

Result<SpecCall> split_spec(std::string_view spec) {
  const std::string where = "\"" + std::string(spec) + "\": ";
  const std::string_view text = trim(spec);
  if (text.empty()) {
    return Status::Error(where +
                         "empty distribution, expected e.g. \"constant(20ms)\" or \"uniform(0ms, 250ms)\"");
  }

  const size_t open = text.find('(');
  const size_t close = text.find(')');
  if (open == std::string_view::npos && close == std::string_view::npos) {
    return SpecCall{"", std::string(text), {std::string(text)}};
  }
  if (open == std::string_view::npos || close < open) {
    return Status::Error(where + "unbalanced parentheses, \")\" without a matching \"(\"");
  }

  SpecCall call;
  const std::string_view name = trim(text.substr(0, open));
  if (!is_identifier(name)) {
    return Status::Error(where + "expected a distribution name before \"(\", e.g. \"uniform(0ms, 250ms)\"");
  }
  call.name = std::string(name);

  if (close == std::string_view::npos) {
    return Status::Error(where + "unbalanced parentheses, missing \")\" at the end");
  }
  const std::string_view inside = text.substr(open + 1, close - open - 1);
  if (inside.find('(') != std::string_view::npos) {
    return Status::Error(where + "unbalanced parentheses, expected one \"(\" after the name and no nesting");
  }
  const std::string_view after = text.substr(close + 1);
  if (!after.empty()) {
    return Status::Error(where + "unexpected text \"" + std::string(after) + "\" after \")\"" +
                         (after.find(')') != std::string_view::npos ? " (unbalanced parentheses)" : ""));
  }

  call.inside = std::string(trim(inside));
  if (call.inside.empty()) return call;
  size_t start = 0;
  while (true) {
    const size_t comma = call.inside.find(',', start);
    const std::string_view arg = trim(std::string_view(call.inside).substr(start, comma - start));
    if (arg.empty()) {
      return Status::Error(where + "empty argument, expected values separated by commas");
    }
    call.args.emplace_back(arg);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return call;
}

}  // namespace perflab
