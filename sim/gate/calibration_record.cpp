// See calibration_record.h.
#include "sim/gate/calibration_record.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "sim/runner/run_outputs.h"
#include "sim/runner/run_table.h"
#include "sim/text/markdown.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

std::string run_label(const CalibrationWindow& window, const RunRow& row) {
  const std::string point = point_label(*window.real->scenario, row.point);
  return (point.empty() ? "the point" : point) + ", seed " + std::to_string(row.seed) +
         (window.name.empty() ? "" : ", " + window.name);
}

fs::path calibration_file(const fs::path& results, const std::string& study, const std::string& scenario) {
  return results / study / (scenario + ".calibration.toml");
}

namespace {

// A TOML basic string: quoted, with quotes and backslashes escaped.
std::string quoted(const std::string& text) {
  std::ostringstream out;
  out << toml::value<std::string>(text);
  return out.str();
}

// Whether the fit's sim ran at a probed wake-up: its residuals then show it, in one more column.
bool has_wake_up(const CalibrationFit& fit) {
  return std::any_of(fit.residuals.begin(), fit.residuals.end(),
                     [](const CalibrationResidual& r) { return r.wake_up.has_value(); });
}

}  // namespace

std::string calibration_toml(const CalibrationFit& fit, const std::string& scenario,
                             const std::string& record, const std::optional<Rederivation>& rederivation) {
  std::string out =
      "# perflab calibrate: the constants `perflab validate` sets on the sim side (docs/validation.md).\n";
  if (!record.empty()) out += "# " + record + "\n";
  out += "scenario = " + quoted(scenario) + "\n";
  out += "method = " + quoted(fit.method) + "\n";
  if (!fit.source.empty()) out += "source = " + quoted(fit.source) + "\n";
  if (!fit.windows.empty()) out += "windows = " + quoted(fit.windows) + "\n";
  out += "\n[constants]\n";
  for (const auto& c : fit.constants)
    out += fmt::format("{} = {{ value = {}, unit = \"{}\" }}\n", c.param, format_number(c.value), c.unit);
  if (!fit.measured.empty()) {
    out +=
        "\n# This machine's at the calibration runs, measured, not fitted: validate measures its own.\n"
        "[measured]\n";
    for (const auto& m : fit.measured) {
      out += fmt::format("{} = {{ low = {}, high = {}, unit = \"{}\", how = {} }}\n", m.name,
                         format_number(m.low, 4), format_number(m.high, 4), m.unit, quoted(m.how));
    }
  }
  if (rederivation) {
    out += fmt::format(
        "\n# The constants committed when these runs were made, scored on them (perflab calibrate).\n"
        "[rederivation]\ncommitted = {}\nmean_abs_ln = {:.4f}\nmax_abs_ln = {:.4f}\nown_max_abs_ln = {:.4f}\n"
        "verdict = \"{}\"\n",
        quoted(rederivation->committed), rederivation->mean, rederivation->max, rederivation->own_max,
        rederivation->rederived() ? "re-derived" : "not re-derived");
    if (rederivation->own_next) {
      out += fmt::format(
          "# own_max_abs_ln is one run's, standing alone (lone_worst): the next worst was {:.4f}\n",
          *rederivation->own_next);
    }
  }
  return out;
}

std::string calibration_csv(const CalibrationFit& fit) {
  const bool wake_up = has_wake_up(fit);
  std::vector<std::string> header = {"point", "measured", "fitted", "log_error"};  // log_error last
  if (wake_up) header.insert(header.begin() + 1, "wake_up_s");
  std::string out = csv_line(header);
  for (const auto& r : fit.residuals) {
    std::vector<std::string> row = {r.point, format_number(r.measured), format_number(r.fitted),
                                    format_number(r.log_error())};
    if (wake_up) row.insert(row.begin() + 1, r.wake_up ? format_number(*r.wake_up) : "");
    out += csv_line(row);
  }
  return out;
}

Result<std::vector<CalibratedConstant>> read_calibration(const fs::path& file) {
  toml::table doc;
  try {
    doc = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    return Status::Error(file.string() + ": " + std::string(e.description()));
  }
  const auto* constants = doc["constants"].as_table();
  if (constants == nullptr || constants->empty())
    return Status::Error(file.string() + ": expected a [constants] table of PARAM = { value, unit }");
  std::vector<CalibratedConstant> out;
  for (const auto& [key, node] : *constants) {
    const auto* entry = node.as_table();
    std::optional<double> value = entry ? (*entry)["value"].value<double>() : std::nullopt;
    std::optional<std::string> unit = entry ? (*entry)["unit"].value<std::string>() : std::nullopt;
    if (!value || !unit) {
      return Status::Error(file.string() + ": constants." + std::string(key.str()) +
                           " must be { value = NUMBER, unit = \"UNIT\" } (unit \"\" for a plain number)");
    }
    out.push_back({std::string(key.str()), *value, *unit});
  }
  return out;
}

std::string calibration_text(const CalibrationFit& fit,
                             const std::optional<std::vector<CalibratedConstant>>& before) {
  std::string out = "method: " + fit.method + "\n";
  if (!fit.windows.empty()) out += "windows: " + fit.windows + "\n";
  for (const auto& c : fit.constants) {
    out += "  " + c.param + " = " + format_number(c.value) + (c.unit.empty() ? "" : " " + c.unit);
    if (before) {
      for (const auto& old : *before) {
        if (old.param != c.param) continue;
        if (old.unit != c.unit) {
          out += fmt::format(" (committed: {} {})", format_number(old.value), old.unit);
        } else if (old.value == c.value) {
          out += " (committed " + format_number(old.value) + ": unchanged)";
        } else if (old.value == 0) {
          out += " (committed 0: moved from zero)";
        } else {
          out += fmt::format(" (committed {}: moved {:+.1f}%)", format_number(old.value),
                             100 * (c.value / old.value - 1));
        }
      }
    }
    out += "\n";
  }
  for (const auto& m : fit.measured) {
    out += fmt::format("  measured, not fitted: {} = {}–{} {} over the points ({})\n", m.name,
                       format_number(m.low, 3), format_number(m.high, 3), m.unit, m.how);
  }
  const bool wake_up = has_wake_up(fit);
  std::vector<std::string> header = {"point used", "measured", "fitted", "ln(measured/fitted)"};
  if (wake_up) header.insert(header.begin() + 1, "sim's wake-up");
  MarkdownTable table(header, wake_up ? "lrrrr" : "lrrr");
  double total = 0, worst = 0;
  for (const auto& r : fit.residuals) {
    std::vector<std::string> row = {r.point, fmt::format("{:.4g}", r.measured),
                                    fmt::format("{:.4g}", r.fitted), fmt::format("{:.4f}", r.log_error())};
    if (wake_up) row.insert(row.begin() + 1, r.wake_up ? fmt::format("{:.1f} µs", *r.wake_up * 1e6) : "");
    table.add(row);
    total += std::abs(r.log_error());
    worst = std::max(worst, std::abs(r.log_error()));
  }
  if (!fit.residuals.empty()) {
    out += table.str();
    out += fmt::format("residuals over {} points: mean |ln| {:.4f}, max {:.4f}\n", fit.residuals.size(),
                       total / static_cast<double>(fit.residuals.size()), worst);
    std::vector<double> errors;
    for (const auto& r : fit.residuals) errors.push_back(r.log_error());
    if (auto lone = lone_worst(errors)) {
      const auto at = std::find_if(fit.residuals.begin(), fit.residuals.end(),
                                   [&](const auto& r) { return std::abs(r.log_error()) == lone->first; });
      out += fmt::format(
          "one point stands alone: {} at |ln| {:.4f}, the next worst {:.4f}; a later calibrate re-derives "
          "against the worst, which nearly any constants meet: see what stalled that run, or calibrate "
          "again\n",
          at->point, lone->first, lone->second);
    }
  }
  return out;
}

std::optional<std::pair<double, double>> lone_worst(const std::vector<double>& log_errors) {
  constexpr double kFarFromItsFit = 0.6931471805599453;  // ln 2
  constexpr double kTimesTheNext = 3;
  double worst = 0, next = 0;
  for (double e : log_errors) {
    const double a = std::abs(e);
    if (a > worst) {
      next = worst;
      worst = a;
    } else {
      next = std::max(next, a);
    }
  }
  if (log_errors.size() < 2 || worst <= kFarFromItsFit || worst < kTimesTheNext * next) return std::nullopt;
  return std::make_pair(worst, next);
}

Result<std::vector<double>> read_calibration_residuals(const fs::path& csv) {
  std::ifstream in(csv);
  if (!in) return Status::Error(csv.string() + ": cannot read the committed calibration's residuals");
  std::vector<double> out;
  std::string line;
  std::getline(in, line);  // point,measured,fitted,log_error
  for (int number = 2; std::getline(in, line); ++number) {
    const auto comma = line.rfind(',');  // the point is quoted and may hold commas: log_error is last
    try {
      out.push_back(std::stod(line.substr(comma + 1)));
    } catch (const std::exception&) {
      return Status::Error(csv.string() + ":" + std::to_string(number) + ": expected a number in log_error");
    }
  }
  return out;
}

std::optional<Rederivation> rederive(const std::vector<CalibrationResidual>& committed_here,
                                     const std::vector<double>& committed_own, const std::string& committed) {
  if (committed_here.empty()) return std::nullopt;
  Rederivation out;
  out.committed = committed;
  for (const auto& r : committed_here) {
    out.mean += std::abs(r.log_error()) / static_cast<double>(committed_here.size());
    out.max = std::max(out.max, std::abs(r.log_error()));
  }
  for (double e : committed_own) out.own_max = std::max(out.own_max, std::abs(e));
  if (auto lone = lone_worst(committed_own)) out.own_next = lone->second;
  return out;
}

std::string rederivation_text(const Rederivation& r) {
  return fmt::format(
      "the committed constants on these runs: mean |ln| {:.4f}, max {:.4f}, against their own fit's max "
      "{:.4f}{}: {}\n",
      r.mean, r.max, r.own_max,
      r.own_next ? fmt::format(" (one run's, standing alone: the next worst was {:.4f})", *r.own_next) : "",
      r.rederived() ? "re-derived (within its residual)" : "**not re-derived** (beyond its residual)");
}

std::optional<double> stated_wall_time(const std::filesystem::path& file) {
  std::ifstream in(file);
  const std::regex wall(R"(wall time (\d+) s)");
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, match, wall)) return std::stod(match[1]);
  }
  return std::nullopt;
}

std::string windows_description(int count, int gap_s, const std::vector<std::string>& starts) {
  if (count == 1) return "";
  return fmt::format("{} windows {} s apart, starting {} (every study's runs in each, one fit on all)", count,
                     gap_s, join(starts, ", "));
}

std::optional<StatedCalibrationRun> stated_calibration_run(const std::filesystem::path& file) {
  const auto seconds = stated_wall_time(file);
  if (!seconds) return std::nullopt;
  StatedCalibrationRun run;
  run.seconds = *seconds;
  std::ifstream in(file);
  const std::regex windows(R"re(^windows = "(\d+) windows (\d+) s apart)re");  // windows_description's
  const std::regex own(R"('s runs (\d+) s a window\))");                       // calibrate's record
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# ran ", 0) == 0) {
      const size_t host = line.find(" on ");  // the date may differ
      run.record = host == std::string::npos ? line : line.substr(host);
      if (std::regex_search(line, match, own)) run.study_seconds_a_window = std::stod(match[1]);
    }
    if (std::regex_search(line, match, windows)) {
      run.windows = std::stoi(match[1]);
      run.gap_s = std::stod(match[2]);
    }
  }
  return run;
}

}  // namespace perflab
