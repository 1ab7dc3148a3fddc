// A study's knobs, each bound once to the member of the study's options it sets (ns-3 attribute style):
//
//   struct PingOptions { int64_t requests = 100; size_t request_size = 1024; };
//   Knobs<PingOptions> knobs;
//   knobs.integer("requests", &PingOptions::requests, "requests the client sends").at_least(1);
//   knobs.size("request_size", &PingOptions::request_size, "bytes of each request");
//
// A binding names the knob, its type and unit (the binder), the member it sets and what it means; the
// default is the member's own initialiser in Options, written back as the scenario file would spell it
// ("1KiB"). From the bindings come the study's parameter schema (specs(): what the scenario loader checks
// a file against, what `perflab describe` and Python's describe() print, what Python's keyword arguments
// take) and the typed options of one grid point (options()). A member deeper in Options is bound with an
// accessor: [](PipeOptions& o) -> auto& { return o.pipeline.reader.pump; }.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/common/enum_names.h"
#include "sim/study/params.h"
#include "sim/text/value_format.h"

namespace perflab {

// Defaults are written as a scenario file writes them: format_quantity(…, Spelling::kLiteral), units.h.
std::string toml_string_list(const std::vector<std::string>& items);  // ["a", "b"]

template <class Options>
class Knobs {
 public:
  template <class Member>
  ParamSpec& integer(const std::string& name, Member member, std::string meaning) {
    auto value = default_of(member);
    return bind(int_param(name, std::to_string(static_cast<int64_t>(value)), std::move(meaning)), member,
                [name](const Params& p) { return p.integer(name); });
  }
  template <class Member>
  ParamSpec& real(const std::string& name, Member member, std::string meaning) {
    return bind(real_param(name, format_number(default_of(member)), std::move(meaning)), member,
                [name](const Params& p) { return p.real(name); });
  }
  template <class Member>
  ParamSpec& boolean(const std::string& name, Member member, std::string meaning) {
    return bind(bool_param(name, default_of(member) ? "true" : "false", std::move(meaning)), member,
                [name](const Params& p) { return p.boolean(name); });
  }
  template <class Member>
  ParamSpec& size(const std::string& name, Member member, std::string meaning) {
    return bind(size_param(name,
                           format_quantity(static_cast<double>(default_of(member)), Quantity::kSize,
                                           Spelling::kLiteral),
                           std::move(meaning)),
                member, [name](const Params& p) { return p.real(name); });
  }
  template <class Member>
  ParamSpec& rate(const std::string& name, Member member, std::string meaning) {
    return bind(rate_param(name, format_quantity(default_of(member), Quantity::kRate, Spelling::kLiteral),
                           std::move(meaning)),
                member, [name](const Params& p) { return p.real(name); });
  }
  template <class Member>
  ParamSpec& duration(const std::string& name, Member member, std::string meaning) {
    return bind(
        duration_param(name, format_quantity(default_of(member), Quantity::kDuration, Spelling::kLiteral),
                       std::move(meaning)),
        member, [name](const Params& p) { return p.real(name); });
  }
  template <class Member>
  ParamSpec& distribution(const std::string& name, Member member, std::string meaning) {
    return bind(distribution_param(name, default_of(member).spec(), std::move(meaning)), member,
                [name](const Params& p) { return p.distribution(name); });
  }
  template <class Member>
  ParamSpec& text(const std::string& name, Member member, std::string meaning) {
    return bind(text_param(name, default_of(member), std::move(meaning)), member,
                [name](const Params& p) { return p.text(name); });
  }
  // A file, relative to the scenario file; the member holds the resolved path.
  template <class Member>
  ParamSpec& path(const std::string& name, Member member, std::string meaning) {
    return bind(path_param(name, default_of(member), std::move(meaning)), member,
                [name](const Params& p) { return p.string(name); });
  }
  template <class Member>
  ParamSpec& paths(const std::string& name, Member member, std::string meaning) {
    return bind(path_list_param(name, toml_string_list(default_of(member)), std::move(meaning)), member,
                [name](const Params& p) { return p.paths(name); });
  }
  // One of the values `names` lists, spelled as it spells them.
  template <class Member, class Enum>
  ParamSpec& choice(const std::string& name, Member member, const EnumNames<Enum>& names,
                    std::string meaning) {
    return bind(choice_param(name, names.name(default_of(member)), names.names(), std::move(meaning)), member,
                [name, &names](const Params& p) { return p.choice(name, names); });
  }

  const std::vector<ParamSpec>& specs() const { return specs_; }

  // Options with every bound member set from the point's values (the loader has checked them).
  Options options(const Params& params) const {
    Options options;
    for (const auto& set : setters_) set(params, options);
    return options;
  }

  // Sets the members whose knobs `given` holds, and leaves the others as they are (Python's keyword
  // arguments: analysis/module/knob_arguments.h).
  void apply(const Params& given, Options& options) const {
    for (size_t i = 0; i < specs_.size(); ++i) {
      if (given.has(specs_[i].name)) setters_[i](given, options);
    }
  }

 private:
  template <class Member>
  static auto default_of(Member member) {
    Options defaults;
    return std::invoke(member, defaults);
  }

  template <class Member, class Read>
  ParamSpec& bind(ParamSpec spec, Member member, Read read) {
    setters_.push_back([member, read](const Params& params, Options& options) {
      auto& field = std::invoke(member, options);
      field = static_cast<std::remove_reference_t<decltype(field)>>(read(params));
    });
    specs_.push_back(std::move(spec));
    return specs_.back();
  }

  std::vector<ParamSpec> specs_;
  std::vector<std::function<void(const Params&, Options&)>> setters_;
};

}  // namespace perflab
