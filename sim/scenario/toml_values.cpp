#include "sim/scenario/toml_values.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

std::string where_of(const fs::path& file, const toml::node& node) {
  auto line = node.source().begin.line;
  return file.string() + ":" + std::to_string(line);
}

Status error_at(const std::string& where, const std::string& message) {
  return Status::Error(where + ": " + message);
}

// Entries of a TOML table in the order they appear in the file (toml++ sorts them by key).
std::vector<std::pair<std::string, const toml::node*>> in_file_order(const toml::table& table) {
  std::vector<std::pair<std::string, const toml::node*>> entries;
  for (const auto& [key, node] : table) entries.emplace_back(std::string(key.str()), &node);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.second->source().begin.line < b.second->source().begin.line;
  });
  return entries;
}

std::string toml_type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "a list";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date/time";
  }
}

Status wrong_type(const Located& at, const std::string& key, const std::string& expected) {
  return error_at(at.where, "\"" + key + "\" is " + toml_type_name(*at.node) + ", expected " + expected);
}

namespace {

// What `path` is when it is not a regular file: "does not exist", "is a folder", ...
std::string what_it_is(const fs::path& path) {
  std::error_code ec;
  switch (fs::status(path, ec).type()) {
    case fs::file_type::not_found:
      return fs::is_symlink(fs::symlink_status(path, ec)) ? "is a link to nothing" : "does not exist";
    case fs::file_type::directory:
      return "is a folder";
    case fs::file_type::character:
    case fs::file_type::block:
      return "is a device";
    case fs::file_type::fifo:
      return "is a named pipe (FIFO)";
    case fs::file_type::socket:
      return "is a socket";
    default:
      return ec ? "cannot be reached (" + ec.message() + ")" : "is not a regular file";
  }
}

Result<std::string> resolve_path(const Located& at, const std::string& key, const std::string& text) {
  fs::path path = text;
  if (path.is_relative()) path = at.base_dir / path;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return error_at(at.where, "\"" + key + "\": \"" + path.string() + "\" " + what_it_is(path) +
                                  ", expected a readable file");
  }
  if (access(path.c_str(), R_OK) != 0) {
    return error_at(at.where, "\"" + key + "\": file \"" + path.string() + "\" cannot be read (" +
                                  std::strerror(errno) + "), expected a readable file");
  }
  return path.lexically_normal().string();
}

// Converts one TOML value to a parameter value of the type the schema declares.
}  // namespace

Result<ParamValue> to_param_value(const ParamSpec& spec, const Located& at) {
  const toml::node& node = *at.node;
  const std::string& key = spec.name;
  auto check_min = [&](double v, const std::string& text) -> Status {
    if (v < spec.min) {
      return error_at(at.where, "\"" + key + "\" = " + text +
                                    " is too small, expected a value >= " + format_number(spec.min));
    }
    return Status::OK();
  };
  switch (spec.type) {
    case ParamType::kInt: {
      if (!node.is_integer()) return wrong_type(at, key, "an integer");
      int64_t v = node.as_integer()->get();
      auto s = check_min(static_cast<double>(v), std::to_string(v));
      if (!s.ok()) return s;
      return ParamValue{v, std::to_string(v)};
    }
    case ParamType::kReal: {
      if (!node.is_number()) return wrong_type(at, key, "a number");
      double v =
          node.is_integer() ? static_cast<double>(node.as_integer()->get()) : node.as_floating_point()->get();
      auto s = check_min(v, format_number(v));
      if (!s.ok()) return s;
      return ParamValue{v, format_number(v)};
    }
    case ParamType::kBool: {
      if (!node.is_boolean()) return wrong_type(at, key, "true or false");
      bool v = node.as_boolean()->get();
      return ParamValue{v, v ? "true" : "false"};
    }
    case ParamType::kChoice: {
      std::vector<std::string> quoted;
      for (const auto& c : spec.choices) quoted.push_back("\"" + c + "\"");
      std::string choices = join(quoted);
      if (!node.is_string()) return wrong_type(at, key, "one of " + choices);
      std::string v = node.as_string()->get();
      if (std::find(spec.choices.begin(), spec.choices.end(), v) == spec.choices.end()) {
        return error_at(at.where,
                        "\"" + key + "\" = \"" + v + "\" is not a valid choice, expected one of " + choices);
      }
      return ParamValue{v, v};
    }
    case ParamType::kDuration:
    case ParamType::kSize:
    case ParamType::kRate: {
      Quantity q = spec.type == ParamType::kDuration ? Quantity::kDuration
                   : spec.type == ParamType::kSize   ? Quantity::kSize
                                                     : Quantity::kRate;
      const char* example = spec.type == ParamType::kDuration ? "\"20ms\""
                            : spec.type == ParamType::kSize   ? "\"64KiB\""
                                                              : "\"100MBps\"";
      if (!node.is_string())
        return wrong_type(at, key, std::string("a ") + type_name(spec.type) + " string like " + example);
      std::string text = node.as_string()->get();
      auto v = parse_quantity(text, q);
      if (!v.ok()) return error_at(at.where, "\"" + key + "\": " + v.status().message());
      auto s = check_min(*v, text);
      if (!s.ok()) return s;
      return ParamValue{*v, text};
    }
    case ParamType::kDistribution: {
      if (!node.is_string()) return wrong_type(at, key, "a distribution string like \"uniform(0ms, 250ms)\"");
      auto d = Distribution::parse(node.as_string()->get(), Quantity::kDuration, at.base_dir);
      if (!d.ok()) return error_at(at.where, "\"" + key + "\": " + d.status().message());
      std::string text = d->spec();
      return ParamValue{std::move(d).value(), text};
    }
    case ParamType::kText: {
      if (!node.is_string()) return wrong_type(at, key, "a string");
      std::string v = node.as_string()->get();
      return ParamValue{v, v};
    }
    case ParamType::kPath: {
      if (!node.is_string()) return wrong_type(at, key, "a file path string");
      if (node.as_string()->get().empty()) return ParamValue{std::string(), std::string()};  // no file
      auto path = resolve_path(at, key, node.as_string()->get());
      if (!path.ok()) return path.status();
      return ParamValue{*path, node.as_string()->get()};
    }
    case ParamType::kPathList: {
      if (!node.is_array()) return wrong_type(at, key, "a list of file path strings");
      std::vector<std::string> paths;
      std::string text;
      for (const auto& element : *node.as_array()) {
        if (!element.is_string()) {
          return error_at(at.where, "\"" + key + "\" has an element that is " + toml_type_name(element) +
                                        ", expected a list of file path strings");
        }
        auto path = resolve_path(at, key, element.as_string()->get());
        if (!path.ok()) return path.status();
        paths.push_back(*path);
        text += (text.empty() ? "" : ";") + element.as_string()->get();
      }
      if (paths.empty())
        return error_at(at.where, "\"" + key + "\" is an empty list, expected at least one path");
      return ParamValue{paths, text};
    }
  }
  return Status::Error("unreachable");
}

namespace {

std::string known_params(const Study& study) {
  std::vector<std::string> names;
  for (const auto& p : study.params) names.push_back(p.name);
  return join(names);
}

}  // namespace

Status unknown_param(const std::string& where, const std::string& key, const Study& study) {
  return error_at(where, "unknown parameter \"" + key + "\" for study \"" + study.name +
                             "\", expected one of: " + known_params(study) + " (see perflab describe " +
                             study.name + ")");
}

}  // namespace perflab
