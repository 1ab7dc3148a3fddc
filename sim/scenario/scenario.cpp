// The scenario loader: see scenario.h for what it checks and in which order.
#include "sim/scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "models/common/printable.h"

#include "sim/scenario/source_tree.h"
#include "sim/scenario/toml_values.h"
#include "sim/scenario/validate_table.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

namespace {

// The keys each fixed section of a scenario file may hold.
const std::map<std::string, std::vector<std::string>>& section_keys() {
  static const std::map<std::string, std::vector<std::string>> keys = {
      {"scenario",
       {"name", "study", "engine", "description", "seeds", "seed", "repetitions", "long_repetitions",
        "headline", "slow", "point_timeout"}},
      {"network", {"latency", "bandwidth"}},
  };
  return keys;
}

Status wrong_engine(const std::string& where, const ParamSpec& spec, Engine engine) {
  return error_at(where, "parameter \"" + spec.name + "\" is only used by the " + spec.engines_text() +
                             " engine" + (spec.engines.size() > 1 ? "s" : "") +
                             ", and this scenario runs the " + engine_name(engine) + " engine");
}

// Parses a TOML value given on the command line by wrapping it as "v = VALUE".
Result<toml::table> parse_value_document(const std::string& value, const std::string& where) {
  try {
    return toml::parse("v = " + value);
  } catch (const toml::parse_error& e) {
    return error_at(where, "\"" + value + "\" is not a TOML value (" + std::string(e.description()) +
                               "); strings need quotes, e.g. --set 'network.latency=\"constant(5ms)\"'");
  }
}

// The raw scenario: the TOML document after overrides, plus where each overridden value came from.
struct Document {
  toml::table root;
  std::map<std::string, std::string> overridden;  // dotted key -> "--set key=value"
};

// Whether two values of one parameter are the same value however spelt ("1KiB" and "1024B").
bool same_value(const ParamValue& a, const ParamValue& b) {
  const auto number = [](const ParamValue& v) -> std::optional<double> {
    if (const auto* i = std::get_if<int64_t>(&v.typed)) return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&v.typed)) return *d;
    return std::nullopt;
  };
  if (number(a) && number(b)) return *number(a) == *number(b);
  if (a.typed.index() == b.typed.index() && std::holds_alternative<bool>(a.typed))
    return std::get<bool>(a.typed) == std::get<bool>(b.typed);
  return a.text == b.text;
}

Status apply_override(Document& doc, const Override& o, const Study* study) {
  std::string where = o.origin.empty() ? "--set " + o.key + "=" + o.value : o.origin;
  std::vector<std::string> parts;
  std::stringstream ss(o.key);
  for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
  if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) {
    return Status::Error(where +
                         ": key must be SECTION.NAME with SECTION one of scenario, network, params, " +
                         "sweep (e.g. params.prune_threshold)");
  }
  const std::string& section = parts[0];
  const std::string& name = parts[1];
  if (section == "params" || section == "sweep") {
    if (study != nullptr && study->find_param(name) == nullptr) return unknown_param(where, name, *study);
  } else if (auto it = section_keys().find(section); it != section_keys().end()) {
    if (std::find(it->second.begin(), it->second.end(), name) == it->second.end()) {
      return Status::Error(where + ": unknown key \"" + name + "\" in [" + section +
                           "], expected one of: " + join(it->second));
    }
  } else {
    return Status::Error(
        where + ": unknown section \"" + section +
        "\", expected one of scenario, network, params, sweep ([[case]] entries cannot be set)");
  }
  auto parsed = parse_value_document(o.value, where);
  if (!parsed.ok()) return parsed.status();
  if (section == "sweep" && !parsed->get("v")->is_array()) {
    return Status::Error(where + ": a sweep takes a list, e.g. --set 'sweep." + name + "=[1,2,3]'");
  }
  auto* table = doc.root[section].as_table();
  if (table == nullptr) {
    doc.root.insert_or_assign(section, toml::table{});
    table = doc.root[section].as_table();
  }
  table->insert_or_assign(name, *parsed->get("v"));
  doc.overridden[section + "." + name] = where;
  // A parameter lives in one place: fixing it removes it from the sweep and vice versa.
  const char* other = section == "params" ? "sweep" : section == "sweep" ? "params" : nullptr;
  if (other != nullptr) {
    if (auto* t = doc.root[other].as_table()) t->erase(name);
  }
  return Status::OK();
}

struct Loader {
  fs::path file;
  fs::path dir;
  Document doc;
  Scenario scenario;

  Located locate(const std::string& dotted, const toml::node& node) const {
    auto it = doc.overridden.find(dotted);
    if (it != doc.overridden.end()) return {&node, it->second, fs::current_path()};
    return {&node, where_of(file, node), dir};
  }

  Status check_keys(const toml::table& table, const std::string& section) {
    const auto& valid = section_keys().at(section);
    for (const auto& [key, node] : in_file_order(table)) {
      if (std::find(valid.begin(), valid.end(), key) == valid.end()) {
        return error_at(locate(section + "." + key, *node).where,
                        "unknown key \"" + key + "\" in [" + section + "], expected one of: " + join(valid));
      }
    }
    return Status::OK();
  }

  Status load_scenario_section() {
    const auto* table = doc.root["scenario"].as_table();
    if (table == nullptr)
      return error_at(file.string() + ":1", "missing [scenario] table, expected name and study");
    auto s = check_keys(*table, "scenario");
    if (!s.ok()) return s;
    auto get_string = [&](const char* key, std::string& out, bool required) -> Status {
      const auto* node = table->get(key);
      if (node == nullptr) {
        return required ? error_at(where_of(file, *table),
                                   std::string("[scenario] has no \"") + key + "\", expected a string")
                        : Status::OK();
      }
      if (!node->is_string())
        return wrong_type(locate(std::string("scenario.") + key, *node), key, "a string");
      out = node->as_string()->get();
      return Status::OK();
    };
    auto get_int = [&](const char* key, int64_t& out, int64_t min) -> Status {
      const auto* node = table->get(key);
      if (node == nullptr) return Status::OK();
      auto at = locate(std::string("scenario.") + key, *node);
      if (!node->is_integer()) return wrong_type(at, key, "an integer");
      out = node->as_integer()->get();
      if (out < min)
        return error_at(at.where, std::string("\"") + key + "\" = " + std::to_string(out) +
                                      " is too small, expected an integer >= " + std::to_string(min));
      return Status::OK();
    };
    std::string study_name;
    std::string engine = "sim";
    if (!(s = get_string("name", scenario.name, true)).ok()) return s;
    if (!(s = get_string("study", study_name, true)).ok()) return s;
    if (!(s = get_string("engine", engine, false)).ok()) return s;
    if (!(s = get_string("description", scenario.description, false)).ok()) return s;
    auto study = study_named(study_name);
    if (!study.ok())
      return error_at(locate("scenario.study", *table->get("study")).where, study.status().message());
    scenario.study = *study;
    if (scenario.name.empty() || scenario.name.find('/') != std::string::npos) {
      return error_at(locate("scenario.name", *table->get("name")).where,
                      "\"name\" must be a non-empty file stem without '/'");
    }
    auto parsed_engine = parse_engine(engine);
    if (!parsed_engine) {
      return error_at(locate("scenario.engine", *table->get("engine")).where,
                      "engine \"" + engine + "\" is unknown, expected \"sim\", \"micro\" or \"real\"");
    }
    scenario.engine = *parsed_engine;
    const Study& chosen = *scenario.study;
    bool supported = scenario.engine == Engine::kSim    ? bool(chosen.run_sim)
                     : scenario.engine == Engine::kReal ? bool(chosen.run_real)
                                                        : bool(chosen.setup_micro);
    if (!supported) {
      return error_at(locate("scenario.engine", *table->get("engine")).where,
                      "study \"" + study_name + "\" has no " + engine + " engine driver");
    }
    int64_t seeds = 1, seed = 1, repetitions = 5;
    if (!(s = get_int("seeds", seeds, 1)).ok()) return s;
    if (!(s = get_int("seed", seed, 0)).ok()) return s;
    if (!(s = get_int("repetitions", repetitions, 1)).ok()) return s;
    scenario.seeds = static_cast<int>(seeds);
    scenario.seed = static_cast<uint64_t>(seed);
    scenario.repetitions = static_cast<int>(repetitions);
    int64_t long_repetitions = repetitions;
    if (!(s = get_int("long_repetitions", long_repetitions, 1)).ok()) return s;
    scenario.long_repetitions = static_cast<int>(std::min(long_repetitions, repetitions));  // a cap
    if (const auto* node = table->get("point_timeout")) {
      auto timeout =
          to_param_value(duration_param("point_timeout", "", ""), locate("scenario.point_timeout", *node));
      if (!timeout.ok()) return timeout.status();
      scenario.point_timeout_s = std::get<double>(timeout->typed);
      if (scenario.point_timeout_s <= 0) {
        return error_at(locate("scenario.point_timeout", *node).where,
                        "\"point_timeout\" = \"" + timeout->text +
                            "\" is not valid, expected a positive duration, e.g. \"30s\" "
                            "(leave it out for no limit)");
      }
    }
    for (auto [key, flag] : {std::pair{"headline", &scenario.headline}, std::pair{"slow", &scenario.slow}}) {
      if (const auto* node = table->get(key)) {
        if (!node->is_boolean())
          return wrong_type(locate(std::string("scenario.") + key, *node), key, "true or false");
        *flag = node->as_boolean()->get();
      }
    }
    return Status::OK();
  }

  // [quick]: SECTION.KEY = VALUE entries, kept as overrides (parse_and_load checks them on the file).
  Status load_quick_section() {
    const auto* node = doc.root.get("quick");
    if (node == nullptr) return Status::OK();
    for (const auto& [section, entries] : in_file_order(*node->as_table())) {
      const auto* table = entries->as_table();
      if (table == nullptr || section == "quick") {
        return error_at(where_of(file, *entries),
                        "[quick] holds overrides written SECTION.KEY = VALUE (e.g. scenario.seeds = 3, "
                        "sweep.n = [100, 1000]), expected a section name before \"" +
                            section + "\"");
      }
      for (const auto& [key, value] : in_file_order(*table)) {
        std::ostringstream text;
        value->visit([&text](const auto& v) { text << v; });
        const std::string dotted = fmt::format("{}.{}", section, key);
        scenario.quick.push_back(
            {dotted, text.str(),
             fmt::format("{}: [quick] {} = {}", where_of(file, *value), dotted, text.str())});
      }
    }
    return Status::OK();
  }

  // [check]: METRIC = relative tolerance, for the regression gate (sim/gate/check.h). Only a simulated time
  // of the sim engine takes one; exact counts stay exact.
  Status load_check_section() {
    const auto* node = doc.root.get("check");
    if (node == nullptr) return Status::OK();
    const auto& metrics = scenario.study->metrics_for(scenario.engine);
    std::vector<std::string> timed;
    for (const auto& m : metrics) {
      if (!m.exact) timed.push_back(m.name);
    }
    for (const auto& [key, value] : in_file_order(*node->as_table())) {
      std::string where = where_of(file, *value);
      auto spec = std::find_if(metrics.begin(), metrics.end(), [&](const auto& m) { return m.name == key; });
      if (scenario.engine != Engine::kSim) {
        return error_at(where,
                        "[check] tolerances are for the sim engine; micro-engine timings are judged "
                        "by the study's claims");
      }
      if (spec == metrics.end() || spec->exact) {
        return error_at(
            where, "[check] " + key + ": " +
                       (spec == metrics.end() ? "unknown metric" : "an exact count, compared exactly") +
                       ", expected a simulated time of study " + scenario.study->name + ": " + join(timed));
      }
      std::optional<double> tolerance = value->value<double>();
      if (!tolerance || !(*tolerance >= 0)) {
        return error_at(where, "[check] " + key + " must be a relative tolerance >= 0, e.g. 1e-6");
      }
      scenario.check_tolerances[key] = *tolerance;
    }
    return Status::OK();
  }

  // [validate]: what `perflab validate` compares and the criteria it judges by (validate_table.h).
  Status load_validate_section() {
    const auto* node = doc.root.get("validate");
    if (node == nullptr) return Status::OK();
    auto spec = parse_validate_table(
        *node, file, *scenario.study, scenario.engine,
        [this](const std::string& dotted, const toml::node& value) { return locate(dotted, value); });
    if (!spec.ok()) return spec.status();
    scenario.validate = std::move(spec).value();
    return Status::OK();
  }

  Status load_network_section() {
    const auto* table = doc.root["network"].as_table();
    if (scenario.engine == Engine::kMicro) {
      if (table != nullptr) {
        return error_at(where_of(file, *table),
                        "[network] is meaningless for engine \"micro\" (real CPU, no network)");
      }
      return Status::OK();
    }
    if (table == nullptr) {
      return error_at(file.string() + ":1",
                      "missing [network] table, expected latency and bandwidth for engine \"sim\"");
    }
    auto s = check_keys(*table, "network");
    if (!s.ok()) return s;
    const auto* latency = table->get("latency");
    const auto* bandwidth = table->get("bandwidth");
    if (latency == nullptr || bandwidth == nullptr) {
      return error_at(where_of(file, *table),
                      "[network] needs both \"latency\" (e.g. \"constant(20ms)\") and "
                      "\"bandwidth\" (e.g. \"100MBps\")");
    }
    auto lat = to_param_value(distribution_param("latency", "", ""), locate("network.latency", *latency));
    if (!lat.ok()) return lat.status();
    scenario.network.latency = std::get<Distribution>(lat->typed);
    auto bw = to_param_value(rate_param("bandwidth", "", ""), locate("network.bandwidth", *bandwidth));
    if (!bw.ok()) return bw.status();
    if (std::get<double>(bw->typed) <= 0) {
      return error_at(locate("network.bandwidth", *bandwidth).where, "\"bandwidth\" must be positive");
    }
    scenario.network.bandwidth = std::get<double>(bw->typed);
    network_columns_ = {{"network.latency", {lat->text, lat->text}},
                        {"network.bandwidth", {bw->text, format_number(scenario.network.bandwidth)}}};
    return Status::OK();
  }

  Result<ParamValue> default_value(const ParamSpec& spec) {
    auto parsed = parse_value_document(spec.default_value, "default of " + spec.name);
    if (!parsed.ok()) return parsed.status();
    Located at{parsed->get("v"), "default of \"" + spec.name + "\" in study " + scenario.study->name,
               scenarios_dir() / scenario.study->name};
    return to_param_value(spec, at);
  }

  // Fixed parameters: defaults, replaced by [params].
  Status load_fixed() {
    const Study& study = *scenario.study;
    for (const auto& spec : study.params) {
      if (spec.default_value.empty()) continue;
      auto v = default_value(spec);
      if (!v.ok()) return v.status();
      fixed_[spec.name] = std::move(v).value();
    }
    const auto* table = doc.root["params"].as_table();
    if (table == nullptr) {
      if (doc.root.contains("params")) return error_at(file.string() + ":1", "\"params\" must be a table");
      return Status::OK();
    }
    for (const auto& [key, node] : in_file_order(*table)) {
      auto at = locate("params." + key, *node);
      const ParamSpec* spec = study.find_param(key);
      if (spec == nullptr) return unknown_param(at.where, key, study);
      if (!spec->used_by(scenario.engine)) return wrong_engine(at.where, *spec, scenario.engine);
      auto v = to_param_value(*spec, at);
      if (!v.ok()) return v.status();
      fixed_[key] = std::move(v).value();
      explicitly_fixed_.insert(key);
    }
    return Status::OK();
  }

  Status load_sweep() {
    const auto* table = doc.root["sweep"].as_table();
    if (table == nullptr) return Status::OK();
    for (const auto& [key, node] : in_file_order(*table)) {
      auto at = locate("sweep." + key, *node);
      const ParamSpec* spec = scenario.study->find_param(key);
      if (spec == nullptr) return unknown_param(at.where, key, *scenario.study);
      if (!spec->used_by(scenario.engine)) return wrong_engine(at.where, *spec, scenario.engine);
      if (explicitly_fixed_.count(key) != 0) {
        return error_at(at.where, "\"" + key + "\" is both in [params] and in [sweep], expected one of them");
      }
      const auto* array = node->as_array();
      if (array == nullptr) return wrong_type(at, key, "a list of values to sweep");
      if (array->empty())
        return error_at(at.where, "sweep \"" + key + "\" is empty, expected at least one value");
      std::vector<ParamValue> values;
      for (const auto& element : *array) {
        Located element_at{&element, at.where, at.base_dir};
        auto v = to_param_value(*spec, element_at);
        if (!v.ok()) return v.status();
        for (const ParamValue& before : values) {
          if (same_value(before, *v)) {
            const std::string twice = before.text == v->text
                                          ? v->text + " twice"
                                          : "the same value twice (" + before.text + " and " + v->text + ")";
            return error_at(at.where, "sweep \"" + key + "\" lists " + twice +
                                          ", expected each value once (--seeds repeats a point)");
          }
        }
        values.push_back(std::move(v).value());
      }
      sweep_.push_back({key, std::move(values)});
    }
    return Status::OK();
  }

  Status load_cases() {
    const auto* node = doc.root.get("case");
    if (node == nullptr) return narrow_cases();
    const auto* array = node->as_array();
    if (array == nullptr || !array->is_array_of_tables()) {
      return error_at(where_of(file, *node), "\"case\" must be written as [[case]] tables");
    }
    std::set<std::string> names;
    for (const auto& element : *array) {
      const auto& table = *element.as_table();
      std::string where = where_of(file, table);
      const auto* name = table.get("name");
      if (name == nullptr || !name->is_string()) {
        return error_at(where, "[[case]] needs a \"name\" string (it becomes the CSV column \"case\")");
      }
      std::string case_name = name->as_string()->get();
      if (!names.insert(case_name).second)
        return error_at(where, "duplicate case name \"" + case_name + "\"");
      Grid::Case c{case_name, {}};
      for (const auto& [key, value] : in_file_order(table)) {
        if (key == "name") continue;
        Located at{value, where_of(file, *value), dir};
        const ParamSpec* spec = scenario.study->find_param(key);
        if (spec == nullptr) return unknown_param(at.where, key, *scenario.study);
        if (!spec->used_by(scenario.engine)) return wrong_engine(at.where, *spec, scenario.engine);
        if (explicitly_fixed_.count(key) != 0 ||
            std::any_of(sweep_.begin(), sweep_.end(),
                        [&name = key](const auto& s) { return s.name == name; })) {
          return error_at(at.where, "\"" + key + "\" is set by a [[case]] and also in [params] or [sweep], " +
                                        "expected it in one place only");
        }
        auto v = to_param_value(*spec, at);
        if (!v.ok()) return v.status();
        c.values.emplace_back(key, std::move(v).value());
      }
      cases_.push_back(std::move(c));
      scenario.cases.push_back(case_name);
    }
    return narrow_cases();
  }

  // --case NAME…: keeps only the named [[case]]s (in file order).
  Status narrow_cases() {
    if (case_filter_.empty()) return Status::OK();
    for (const auto& wanted : case_filter_) {
      if (std::find(scenario.cases.begin(), scenario.cases.end(), wanted) != scenario.cases.end()) continue;
      return Status::Error("--case " + printable(wanted) + ": " + file.string() +
                           (scenario.cases.empty()
                                ? " has no [[case]] tables"
                                : " has no such case, expected one of: " + join(scenario.cases)));
    }
    cases_.erase(std::remove_if(cases_.begin(), cases_.end(),
                                [this](const Grid::Case& c) {
                                  return std::find(case_filter_.begin(), case_filter_.end(), c.name) ==
                                         case_filter_.end();
                                }),
                 cases_.end());
    return Status::OK();
  }

  Status expand_grid() {
    const Study& study = *scenario.study;
    // Columns: "case", every parameter in the study's order, the network. Never the file's order or whether
    // a key sits in [params], [sweep] or a [[case]]: a row is a function of the point's values and its seed.
    if (!cases_.empty()) scenario.param_columns.emplace_back("case");
    for (const auto& spec : study.params) {
      if (spec.used_by(scenario.engine)) scenario.param_columns.push_back(spec.name);
    }
    for (const auto& [key, text] : network_columns_) scenario.param_columns.push_back(key);

    // Every parameter has a value on every point: a default, [params], [sweep], or each [[case]].
    for (const auto& spec : study.params) {
      bool everywhere =
          fixed_.count(spec.name) != 0 ||
          std::any_of(sweep_.begin(), sweep_.end(), [&](const auto& a) { return a.name == spec.name; });
      if (!everywhere && !cases_.empty()) {
        everywhere = std::all_of(cases_.begin(), cases_.end(), [&](const Grid::Case& c) {
          return std::any_of(c.values.begin(), c.values.end(),
                             [&](const auto& kv) { return kv.first == spec.name; });
        });
      }
      if (!everywhere) {
        return error_at(file.string() + ":1", "parameter \"" + spec.name +
                                                  "\" has no default and is not set, " +
                                                  "expected it in [params], [sweep] or a [[case]]");
      }
    }
    // A grid whose size does not fit in 2^53 runs is no sweep anyone can run.
    double points = std::max<double>(1, static_cast<double>(cases_.size()));
    for (const auto& axis : sweep_) points *= static_cast<double>(axis.values.size());
    if (points * scenario.seeds > 9007199254740992.0) {
      return error_at(file.string() + ":1", fmt_points(points) + " grid points × " +
                                                std::to_string(scenario.seeds) +
                                                " seeds is too many runs, expected at most 2^53");
    }
    scenario.grid =
        Grid(scenario.study, scenario.param_columns, fixed_, sweep_, cases_, network_columns_, file.string());
    if (scenario.grid.size() > kGridCheckedUpFront) return Status::OK();
    for (size_t p = 0; p < scenario.grid.size(); ++p) {
      auto s = scenario.grid.point_status(p);
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

  static std::string fmt_points(double points) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", points);
    return text;
  }

  std::map<std::string, ParamValue> fixed_;
  std::set<std::string> explicitly_fixed_;
  std::vector<Grid::Axis> sweep_;
  std::vector<Grid::Case> cases_;
  std::vector<std::string> case_filter_;  // --case NAME…
  std::map<std::string, Grid::Column> network_columns_;
};

}  // namespace

Result<Override> parse_override(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::Error("--set " + text + ": expected KEY=VALUE, e.g. --set params.prune_threshold=2");
  }
  return Override{text.substr(0, eq), text.substr(eq + 1)};
}

fs::path scenarios_dir() {
  if (const char* env = std::getenv("PERFLAB_SCENARIOS")) return env;
  return source_dir() / "scenarios";
}

namespace {

// Everything after parsing: sections, overrides, schema checks and the grid.
Result<Scenario> load_document(Loader& loader, const std::vector<Override>& overrides) {
  const fs::path& file = loader.file;
  for (const auto& [key, node] : in_file_order(loader.doc.root)) {
    static const std::set<std::string> sections = {"scenario", "network", "params", "sweep",
                                                   "case",     "quick",   "check",  "validate"};
    if (sections.count(key) == 0) {
      return error_at(where_of(file, *node),
                      "unknown section \"" + key +
                          "\", expected scenario, network, params, sweep, case, quick, "
                          "check or validate");
    }
    if (key != "case" && !node->is_table())
      return error_at(where_of(file, *node), "\"" + key + "\" must be a table");
  }
  // Overrides of [scenario] first: they can change the study and thus the schema the rest is checked against.
  for (const auto& o : overrides) {
    if (o.key.rfind("scenario.", 0) == 0) {
      auto s = apply_override(loader.doc, o, nullptr);
      if (!s.ok()) return s;
    }
  }
  auto s = loader.load_scenario_section();
  if (!s.ok()) return s;
  for (const auto& o : overrides) {
    if (o.key == kCaseKey) loader.case_filter_.push_back(o.value);
    if (o.key.rfind("scenario.", 0) == 0 || o.key == kCaseKey) continue;
    s = apply_override(loader.doc, o, loader.scenario.study);
    if (!s.ok()) return s;
  }
  loader.scenario.file = file;
  for (auto step : {&Loader::load_quick_section, &Loader::load_check_section, &Loader::load_validate_section,
                    &Loader::load_network_section, &Loader::load_fixed, &Loader::load_sweep,
                    &Loader::load_cases, &Loader::expand_grid}) {
    s = (loader.*step)();
    if (!s.ok()) return s;
  }
  return std::move(loader.scenario);
}

Result<Scenario> parse_and_load(Loader& loader, const std::string& text,
                                const std::vector<Override>& overrides) {
  try {
    loader.doc.root = toml::parse(text, loader.file.string());
  } catch (const toml::parse_error& e) {
    return Status::Error(loader.file.string() + ":" + std::to_string(e.source().begin.line) + ": " +
                         std::string(e.description()));
  }
  const toml::node* quick_table = loader.doc.root.get("quick");
  const std::string quick_where = quick_table ? where_of(loader.file, *quick_table) : "";
  Result<Scenario> scenario = load_document(loader, overrides);
  if (!scenario.ok() || scenario->quick.empty()) return scenario;
  // [quick] is checked now, on the file as written: a bad key or value there is this file's error, whether
  // or not this run asked for --quick. A load that applied it (--quick) has just checked it.
  const std::vector<Override>& with_quick = scenario->quick;
  const bool applied = std::all_of(with_quick.begin(), with_quick.end(), [&](const Override& q) {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const Override& o) { return o.key == q.key && o.value == q.value; });
  });
  if (applied) return scenario;
  Loader again;
  again.file = loader.file;
  again.dir = loader.dir;
  again.doc.root = toml::parse(text, loader.file.string());
  auto quick = load_document(again, with_quick);
  if (!quick.ok()) {
    const std::string& message = quick.status().message();
    if (message.find("[quick]") != std::string::npos) return quick.status();
    return Status::Error(quick_where + ": with [quick] applied: " + message);
  }
  return scenario;
}

}  // namespace

Result<fs::path> find_scenario_file(const fs::path& name) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  if (name.is_relative()) {
    fs::path shipped = scenarios_dir() / name;
    for (const fs::path& candidate : {shipped, fs::path(shipped).concat(".toml")}) {
      if (fs::is_regular_file(candidate, ec)) return candidate;
    }
  }
  return Status::Error(name.string() +
                       ": no such scenario file, expected a .toml file or a shipped scenario's name as "
                       "`perflab list` prints it, e.g. prefetch/jgit-clone");
}

Result<Scenario> load_scenario(const fs::path& name, const std::vector<Override>& overrides) {
  auto found = find_scenario_file(name);
  if (!found.ok()) return found.status();
  const fs::path& file = *found;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return Status::Error(file.string() + ": cannot read the scenario file");
  Loader loader;
  loader.file = file;
  loader.dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  return parse_and_load(loader, text.str(), overrides);
}

Result<Scenario> load_scenario_text(const std::string& text, const std::string& origin, const fs::path& dir,
                                    const std::vector<Override>& overrides) {
  Loader loader;
  loader.file = origin;
  loader.dir = dir;
  return parse_and_load(loader, text, overrides);
}

}  // namespace perflab
