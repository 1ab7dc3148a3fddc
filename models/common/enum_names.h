// One table per enum of a model: the names scenario files, the CLI, reports and Python spell its values
// with. The same table parses a name, prints a value and lists the choices, so a name is written once.
//
//   inline const EnumNames<Mechanism> kMechanismNames{
//       "mechanism", {{Mechanism::kPollTick, "poll-tick"}, {Mechanism::kNone, "none"}}};
//   kMechanismNames.parse("none")  ->  Mechanism::kNone
//   kMechanismNames.name(Mechanism::kNone)  ->  "none"
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/common/status.h"

namespace perflab {

template <class Enum>
class EnumNames {
 public:
  // `kind` names what the values are, for errors: unknown mechanism "x", expected one of: a, b.
  EnumNames(std::string kind, std::initializer_list<std::pair<Enum, const char*>> entries)
      : kind_(std::move(kind)), entries_(entries) {}

  const char* name(Enum value) const {
    for (const auto& [entry, name] : entries_) {
      if (entry == value) return name;
    }
    return "?";
  }

  Result<Enum> parse(std::string_view name) const {
    for (const auto& [entry, entry_name] : entries_) {
      if (name == entry_name) return entry;
    }
    return Status::Error("unknown " + kind_ + " \"" + std::string(name) +
                         "\", expected one of: " + choices());
  }

  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const auto& entry : entries_) names.emplace_back(entry.second);
    return names;
  }

  std::vector<Enum> values() const {
    std::vector<Enum> values;
    for (const auto& entry : entries_) values.push_back(entry.first);
    return values;
  }

  const std::string& kind() const { return kind_; }

 private:
  std::string choices() const {
    std::string text;
    for (const auto& entry : entries_) text += (text.empty() ? "" : ", ") + std::string(entry.second);
    return text;
  }

  std::string kind_;
  std::vector<std::pair<Enum, const char*>> entries_;
};

}  // namespace perflab
