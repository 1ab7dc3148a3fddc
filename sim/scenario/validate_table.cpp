// See validate_table.h.
#include "sim/scenario/validate_table.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

Result<ValidateSpec> parse_validate_table(
    const toml::node& table, const fs::path& file, const Study& study, Engine engine,
    const std::function<Located(const std::string& dotted, const toml::node& value)>& locate) {
  if (!table.is_table()) return error_at(where_of(file, table), "[validate] must be a table of KEY = VALUE");
  ValidateSpec spec;
  auto number = [&](const toml::node& value, const std::string& key, double& out) -> Status {
    std::optional<double> v = value.value<double>();
    if (!v || !(*v >= 0))
      return error_at(where_of(file, value), "[validate] " + key + " must be a number >= 0");
    out = *v;
    return Status::OK();
  };
  auto strings = [&](const toml::node& value, const std::string& key) -> Result<std::vector<std::string>> {
    std::vector<std::string> out;
    const auto* array = value.as_array();
    if (array != nullptr) {
      for (const auto& element : *array) {
        if (!element.is_string()) break;
        out.push_back(element.as_string()->get());
      }
    }
    if (array == nullptr || out.size() != array->size() || out.empty())
      return error_at(where_of(file, value), "[validate] " + key + " must be a non-empty list of strings");
    return out;
  };
  for (const auto& [key, value] : in_file_order(*table.as_table())) {
    Status s;
    if (key == "metrics") {
      auto names = strings(*value, key);
      if (!names.ok()) return names.status();
      for (const auto& name : *names) {
        const auto& known = study.metrics_for(Engine::kSim);
        if (std::none_of(known.begin(), known.end(), [&](const auto& m) { return m.name == name; })) {
          return error_at(where_of(file, *value), "[validate] metric \"" + name +
                                                      "\" is not a metric of study " + study.name +
                                                      " (see perflab describe " + study.name + ")");
        }
      }
      spec.metrics = *names;
    } else if (key == "repetitions") {
      if (!value->is_integer() || value->as_integer()->get() < 5)
        return error_at(where_of(file, *value), "[validate] repetitions must be an integer >= 5");
      spec.repetitions = static_cast<int>(value->as_integer()->get());
    } else if (key == "mean_abs_log") {
      s = number(*value, key, spec.criteria.mean_abs_log);
    } else if (key == "max_abs_log") {
      s = number(*value, key, spec.criteria.max_abs_log);
    } else if (key == "ratio_tolerance") {
      s = number(*value, key, spec.criteria.ratio_tolerance);
    } else if (key == "rank_tau") {
      s = number(*value, key, spec.criteria.rank_tau);
    } else if (key == "spearman") {
      return error_at(where_of(file, *value),
                      "[validate] spearman is replaced by rank_tau: Kendall's tau-b over the pairs of points "
                      "the sim separates by more than the real noise (docs/validation.md)");
    } else if (key == "ratios") {
      const auto* array = value->as_array();
      for (size_t i = 0; array != nullptr && i < array->size(); ++i) {
        auto pair = strings(*array->get(i), key);
        if (!pair.ok() || pair->size() < 2 || pair->size() > 3) {
          return error_at(
              where_of(file, *value),
              "[validate] ratios must be pairs [\"COLUMN=VALUE\", \"COLUMN=VALUE\"], numerator first, "
              "with an optional third \"COLUMN=VALUE\" that keeps only the pairs at those points");
        }
        spec.ratios.push_back({(*pair)[0], (*pair)[1], pair->size() == 3 ? (*pair)[2] : ""});
      }
      if (array == nullptr)
        return error_at(where_of(file, *value), "[validate] ratios must be a list of pairs");
    } else if (key == "pairs") {
      const auto* array = value->as_array();
      const auto& known = study.metrics_for(engine);
      auto is_metric = [&](const std::string& name) {
        return std::any_of(known.begin(), known.end(), [&](const auto& m) { return m.name == name; });
      };
      for (size_t i = 0; array != nullptr && i < array->size(); ++i) {
        auto triple = strings(*array->get(i), key);
        if (!triple.ok() || triple->size() != 3 || !is_metric((*triple)[1]) || !is_metric((*triple)[2])) {
          return error_at(where_of(file, *value),
                          "[validate] pairs must be [\"NAME\", \"MODEL_METRIC\", \"REAL_METRIC\"] with "
                          "metrics of study " +
                              study.name + " on the " + engine_name(engine) + " engine");
        }
        spec.pairs.push_back({(*triple)[0], (*triple)[1], (*triple)[2]});
      }
      if (array == nullptr) return error_at(where_of(file, *value), "[validate] pairs must be a list");
    } else if (key == "calibration" || key == "sim") {
      const auto* table = value->as_table();
      if (table == nullptr)
        return error_at(where_of(file, *value), "[validate] " + key + " must be a table PARAM = VALUE");
      auto& settings = key == "sim" ? spec.sim : spec.calibration;
      for (const auto& [param, v] : in_file_order(*table)) {
        if (study.find_param(param) == nullptr) return unknown_param(where_of(file, *v), param, study);
        std::ostringstream text;
        if (v->is_floating_point()) {
          text << format_number(v->as_floating_point()->get());  // 5.9, not 5.9000000000000004
        } else {
          v->visit([&text](const auto& x) { text << x; });
        }
        settings.emplace_back("params." + param, text.str());
      }
    } else if (key == "latencies") {
      auto latencies = strings(*value, key);
      if (!latencies.ok()) return latencies.status();
      for (const auto& element : *value->as_array()) {  // each as network.latency would take it
        auto parsed =
            to_param_value(distribution_param("latencies", "", ""), locate("validate.latencies", element));
        if (!parsed.ok()) return parsed.status();
      }
      spec.latencies = *latencies;
    } else if (key == "repetitions_at") {
      const auto* entries = value->as_table();
      if (entries == nullptr)
        return error_at(
            where_of(file, *value),
            "[validate] repetitions_at must be a table { \"LATENCY\" = N } of latencies listed in "
            "latencies");
      for (const auto& [latency, n] : in_file_order(*entries)) {
        if (!n->is_integer() || n->as_integer()->get() < 5)
          return error_at(where_of(file, *n),
                          "[validate] repetitions_at." + latency + " must be an integer >= 5");
        spec.repetitions_at[latency] = static_cast<int>(n->as_integer()->get());
      }
    } else if (key == "calibrate_in_window") {
      if (!value->is_boolean())
        return error_at(where_of(file, *value), "[validate] calibrate_in_window must be true or false");
      spec.calibrate_in_window = value->as_boolean()->get();
    } else if (key == "calibration_scenario") {
      if (!value->is_string())
        return error_at(where_of(file, *value), "[validate] calibration_scenario must be a file name");
      spec.calibration_source = value->as_string()->get();
    } else if (key == "also") {
      auto files = strings(*value, key);
      if (!files.ok()) return files.status();
      for (const auto& name : *files) {
        const fs::path beside = file.parent_path() / name;
        std::error_code ec;
        if (fs::path(name).has_parent_path() || fs::path(name).extension() != ".toml" ||
            !fs::is_regular_file(beside, ec)) {
          return error_at(where_of(file, *value), "[validate] also names \"" + name +
                                                      "\", which is not a .toml file beside " +
                                                      file.filename().string());
        }
      }
      spec.also = *files;
    } else {
      return error_at(
          where_of(file, *value),
          "unknown key \"" + key +
              "\" in [validate], expected one of: metrics, repetitions, "
              "mean_abs_log, max_abs_log, ratio_tolerance, rank_tau, ratios, pairs, "
              "latencies, repetitions_at, calibration, sim, calibration_scenario, calibrate_in_window, also");
    }
    if (!s.ok()) return s;
  }
  for (const auto& [latency, n] : spec.repetitions_at) {
    if (std::find(spec.latencies.begin(), spec.latencies.end(), latency) == spec.latencies.end()) {
      const auto* entry = table.as_table()->get("repetitions_at");
      return error_at(where_of(file, *entry), "[validate] repetitions_at names \"" + latency +
                                                  "\", which is not one of its latencies (" +
                                                  join(spec.latencies) + ")");
    }
  }
  if (!spec.sim.empty() && !spec.pairs.empty()) {
    const auto* entry = table.as_table()->get("sim");
    return error_at(
        where_of(file, *entry),
        "[validate] sim sets the sim side of a sim-against-real validation; a same-run validation "
        "(pairs) has none: its model replays each real run");
  }
  if (spec.calibrate_in_window && spec.calibration_source.empty()) {
    const auto* entry = table.as_table()->get("calibrate_in_window");
    return error_at(where_of(file, *entry),
                    "[validate] calibrate_in_window needs a calibration_scenario, expected the scenario "
                    "whose runs the constants are fitted on");
  }
  return spec;
}

}  // namespace perflab
