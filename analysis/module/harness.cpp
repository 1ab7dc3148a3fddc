// The harness, bound: studies and their schemas, scenarios (a file or TOML text), the CSV writers, and the
// statistics of analysis/. Runs themselves happen in the lean `perflab rows` process (a large Python process
// forks slowly); their rows come back in the exact one-line form of sim/runner/row_codec.h, so a table
// assembled from Dask workers' rows goes through the same writer as a local run's and gives the same CSV.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>

#include "analysis/module/bindings.h"
#include "models/common/printable.h"
#include "sim/runner/journal.h"
#include "sim/runner/row_codec.h"
#include "sim/runner/run_outputs.h"
#include "sim/scenario/scenario.h"
#include "sim/stats/stats.h"
#include "sim/text/value_format.h"

namespace perflab::python {
namespace {

namespace py = pybind11;
namespace fs = std::filesystem;

template <typename T>
T value_or_raise(Result<T> result) {
  if (!result.ok()) {
    const std::string message = result.status().message();
    throw py::value_error(printable(message, message.size() + 1, true));
  }
  return std::move(result).value();
}

std::vector<Override> overrides_of(const std::vector<std::string>& sets) {
  std::vector<Override> overrides;
  overrides.reserve(sets.size());
  for (const auto& text : sets) overrides.push_back(value_or_raise(parse_override(text)));
  return overrides;
}

const Study& study_named(const std::string& name) {
  return *value_or_raise(perflab::study_named(name));
}

py::dict describe(const std::string& name) {
  const Study& study = study_named(name);
  py::list params;
  for (const auto& p : study.params) {
    py::dict d;
    d["name"] = p.name;
    d["type"] = type_name(p.type);
    d["default"] = p.default_value;
    d["meaning"] = p.meaning;
    d["choices"] = p.choices;
    d["min"] = p.min;
    d["engine"] = p.engines_text();
    params.append(d);
  }
  auto metric_list = [](const std::vector<MetricSpec>& specs) {
    py::list list;
    for (const auto& m : specs) {
      py::dict d;
      d["name"] = m.name;
      d["meaning"] = m.meaning;
      d["exact"] = m.exact;
      d["unit"] = m.unit;
      list.append(d);
    }
    return list;
  };
  py::list engines;
  if (study.run_sim) engines.append("sim");
  if (study.setup_micro) engines.append("micro");
  py::dict out;
  out["name"] = study.name;
  out["description"] = study.description;
  out["engines"] = engines;
  out["params"] = params;
  out["metrics"] = metric_list(study.metrics);
  out["micro_metrics"] = metric_list(study.micro_metrics.empty() ? study.metrics : study.micro_metrics);
  return out;
}

// The table of `scenario` with the given encoded rows in place (the rest not run).
RunTable table_of(const Scenario& scenario, const std::vector<std::string>& encoded) {
  RunTable table = RunTable::empty(scenario);
  for (const auto& line : encoded) {
    std::string text = !line.empty() && line.back() == '\n' ? line.substr(0, line.size() - 1) : line;
    auto row = decode_row(text);
    if (!row) throw py::value_error("not a run row: " + text.substr(0, 80));
    if (row->replication < 0 || row->replication >= scenario.seeds || row->point >= scenario.grid.size())
      throw py::value_error("a run row of another scenario: " + text.substr(0, 80));
    table.rows.push_back(std::move(*row));  // rows of Dask slices come in any order: sorted once, below
  }
  table.sort();
  return table;
}

py::dict fit_dict(const Result<stats::Fit>& fit) {
  stats::Fit f = value_or_raise(fit);
  py::dict d;
  d["a"] = f.a;
  d["b"] = f.b;
  d["r2"] = f.r2;
  d["b_ci95_low"] = f.b_ci95_low;
  d["b_ci95_high"] = f.b_ci95_high;
  return d;
}

}  // namespace

void bind_harness(py::module_& m) {
  py::class_<Scenario>(m, "Scenario", "A loaded scenario: its study, engine and the expanded grid.")
      .def_property_readonly("name", [](const Scenario& s) { return s.name; })
      .def_property_readonly("study", [](const Scenario& s) { return s.study->name; })
      .def_property_readonly("engine", [](const Scenario& s) { return std::string(engine_name(s.engine)); })
      .def_property_readonly("description", [](const Scenario& s) { return s.description; })
      .def_property_readonly("file", [](const Scenario& s) { return s.file.string(); })
      .def_property_readonly("headline", [](const Scenario& s) { return s.headline; })
      .def_property_readonly("slow", [](const Scenario& s) { return s.slow; })
      .def_property_readonly("seeds", [](const Scenario& s) { return s.seeds; })
      .def_property_readonly("cases", [](const Scenario& s) { return s.cases; })
      .def_property_readonly("param_columns", [](const Scenario& s) { return s.param_columns; })
      .def_property_readonly("metrics",
                             [](const Scenario& s) {
                               std::vector<std::string> names;
                               for (const auto& spec : s.study->metrics_for(s.engine))
                                 names.push_back(spec.name);
                               return names;
                             })
      .def_property_readonly("points", [](const Scenario& s) { return s.grid.size(); })
      .def_property_readonly("runs",
                             [](const Scenario& s) { return s.grid.size() * static_cast<size_t>(s.seeds); })
      .def_property_readonly("fingerprint", [](const Scenario& s) { return scenario_fingerprint(s); })
      .def("__repr__", [](const Scenario& s) {
        return "<perflab scenario " + s.name + ": study " + s.study->name + ", " + engine_name(s.engine) +
               " engine, " + std::to_string(s.grid.size()) + " points x " + std::to_string(s.seeds) +
               " seeds>";
      });

  m.def("studies", [] {
    std::vector<std::string> names;
    for (const Study* s : all_studies()) names.push_back(s->name);
    return names;
  });
  m.def("describe", &describe, py::arg("study"));
  m.def("scenarios_dir", [] { return scenarios_dir().string(); });
  m.def(
      "find_scenario_file",
      [](const std::string& name) { return fs::absolute(value_or_raise(find_scenario_file(name))).string(); },
      py::arg("name"), "A scenario file as given, else a shipped one by the name `perflab list` prints.");
  m.def(
      "load_scenario",
      [](const std::string& file, const std::vector<std::string>& sets) {
        return value_or_raise(load_scenario(file, overrides_of(sets)));
      },
      py::arg("file"), py::arg("set") = std::vector<std::string>{});
  m.def(
      "load_scenario_text",
      [](const std::string& text, const std::string& origin, const std::string& dir,
         const std::vector<std::string>& sets) {
        return value_or_raise(load_scenario_text(text, origin, dir, overrides_of(sets)));
      },
      py::arg("text"), py::arg("origin"), py::arg("dir"), py::arg("set") = std::vector<std::string>{});
  m.def("perflab_binary", [] { return std::string(PERFLAB_BINARY); });
  m.def(
      "rows_csv",
      [](const Scenario& s, const std::vector<std::string>& rows) { return rows_csv(table_of(s, rows)); },
      py::arg("scenario"), py::arg("rows"));
  m.def(
      "summary_csv",
      [](const Scenario& s, const std::vector<std::string>& rows) { return summary_csv(table_of(s, rows)); },
      py::arg("scenario"), py::arg("rows"));
  m.def(
      "summary_markdown",
      [](const Scenario& s, const std::vector<std::string>& rows) {
        return summary_markdown(table_of(s, rows));
      },
      py::arg("scenario"), py::arg("rows"));
  m.def(
      "result_columns",
      [](const std::vector<std::string>& header) {
        auto columns = value_or_raise(result_columns(header));
        return py::dict(py::arg("params") = columns.params, py::arg("metrics") = columns.metrics,
                        py::arg("summary") = columns.summary);
      },
      py::arg("header"));
  m.def("summarize_values", [](const std::vector<double>& values) {
    auto s = stats::summarize(values);
    return py::dict(py::arg("n") = s.n, py::arg("mean") = s.mean, py::arg("ci95_low") = s.ci95_low,
                    py::arg("ci95_high") = s.ci95_high, py::arg("min") = s.min, py::arg("max") = s.max);
  });
  m.def("fit_log", [](const std::vector<double>& x, const std::vector<double>& y) {
    return fit_dict(stats::fit_log(x, y));
  });
  m.def("fit_power", [](const std::vector<double>& x, const std::vector<double>& y) {
    return fit_dict(stats::fit_power(x, y));
  });
}

}  // namespace perflab::python
