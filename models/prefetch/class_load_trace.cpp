// Parser of JDK 17 -Xlog:class+load logs; see class_load_trace.h for what is kept.
#include "models/prefetch/class_load_trace.h"

#include <fstream>
#include <optional>
#include <sstream>

namespace perflab::prefetch {
namespace {

constexpr std::string_view kSourceSeparator = " source: ";

std::string_view trimmed(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

bool is_level(std::string_view decoration) {
  return decoration == "trace" || decoration == "debug" || decoration == "info" || decoration == "warning" ||
         decoration == "error";
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The path of a "file:" URL ("file:/a%20b.jar", "file:///a.jar"), or nullopt if its escapes are broken.
std::optional<std::string> file_url_path(std::string_view url) {
  url.remove_prefix(std::string_view("file:").size());
  if (url.substr(0, 3) == "///") url.remove_prefix(2);
  std::string path;
  for (std::size_t i = 0; i < url.size(); ++i) {
    if (url[i] != '%') {
      path += url[i];
      continue;
    }
    if (i + 2 >= url.size() || hex_digit(url[i + 1]) < 0 || hex_digit(url[i + 2]) < 0) return std::nullopt;
    path += static_cast<char>(hex_digit(url[i + 1]) * 16 + hex_digit(url[i + 2]));
    i += 2;
  }
  return path;
}

struct ParsedLine {
  bool is_class_load = false;  // an [info][class,load] line
  std::string_view message;
};

// Splits "[d1][d2]...[dn] message". Errors are returned without the "file:line: " prefix.
Result<ParsedLine> split_decorations(std::string_view line) {
  std::vector<std::string_view> decorations;
  std::size_t pos = 0;
  while (pos < line.size() && line[pos] == '[') {
    const std::size_t close = line.find(']', pos);
    if (close == std::string_view::npos) return Status::Error("unterminated '[' decoration");
    decorations.push_back(trimmed(line.substr(pos + 1, close - pos - 1)));
    pos = close + 1;
  }
  std::size_t level = 0;
  while (level < decorations.size() && !is_level(decorations[level])) ++level;
  if (level + 1 >= decorations.size()) {
    return Status::Error(
        "expected the decorations of a -Xlog line with level and tags, such as "
        "'[0.01s][info][class,load] ', got '" +
        std::string(line.substr(0, 60)) + "'");
  }
  ParsedLine parsed;
  parsed.is_class_load = decorations[level] == "info" && decorations[level + 1] == "class,load";
  parsed.message = trimmed(line.substr(pos));
  return parsed;
}

}  // namespace

Result<std::vector<TracedClassLoad>> parse_class_load_trace(std::string_view text,
                                                            const std::string& trace_name) {
  std::vector<TracedClassLoad> loads;
  int line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trimmed(line).empty()) continue;

    const std::string where = trace_name + ":" + std::to_string(line_number) + ": ";
    Result<ParsedLine> parsed = split_decorations(line);
    if (!parsed.ok()) return parsed.status().with_context(where);
    if (!parsed->is_class_load) continue;

    const std::string_view message = parsed->message;
    const std::size_t separator = message.find(kSourceSeparator);
    if (separator == 0 || separator == std::string_view::npos ||
        message.substr(0, separator).find(' ') != std::string_view::npos) {
      return Status::Error(where + "expected '<class name> source: <source>' after [class,load], got '" +
                           std::string(message) + "'");
    }
    const std::string_view class_name = message.substr(0, separator);
    const std::string_view source = trimmed(message.substr(separator + kSourceSeparator.size()));
    if (class_name.find('/') != std::string_view::npos) continue;  // a hidden class
    std::string jar_path;
    if (source.rfind("file:", 0) == 0) {
      std::optional<std::string> path = file_url_path(source);
      if (!path) return Status::Error(where + "broken %-escape in source URL '" + std::string(source) + "'");
      if (ends_with(*path, ".jar")) jar_path = std::move(*path);
    }
    const bool from_jdk = source.rfind("jrt:/", 0) == 0 || source.rfind("shared objects file", 0) == 0;
    loads.push_back({std::string(class_name), std::move(jar_path), line_number, from_jdk});
  }
  return loads;
}

Result<std::vector<TracedClassLoad>> read_class_load_trace(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open the class-load trace");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Status::Error(path + ": error while reading the class-load trace");
  return parse_class_load_trace(text.str(), path);
}

}  // namespace perflab::prefetch
