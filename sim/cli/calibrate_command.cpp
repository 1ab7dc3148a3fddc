// perflab calibrate [STUDY...]: runs each study's calibration scenario (validate.toml's calibration_scenario,
// checked to lie outside the validation grid) in the real engine and, when its fit needs it, in the sim with
// the constants at their defaults (and, for a study that takes it, at this machine's wake-up latency probed
// before the real runs: sim/cli/wake_up_probes.h); fits the constants by the study's named method
// (Study::calibration); prints them with every point used and its residual, and how far each moved from the
// committed file; and writes <out>/<study>/<scenario>.calibration.toml and .calibration.csv (default out:
// results/), the file `perflab validate` reads its constants from.
#include <chrono>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "sim/cli/commands.h"
#include "sim/cli/wake_up_probes.h"
#include "sim/gate/calibration_record.h"
#include "sim/gate/provenance.h"
#include "sim/runner/run_outputs.h"
#include "sim/scenario/calibration_scenario.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

// A study's calibration as planned before any run: its scenario, loaded and checked.
struct PlannedCalibration {
  const Study* study;
  Scenario scenario;  // as its file says (the real engine)
  fs::path file;
};

Result<PlannedCalibration> plan_calibration(const std::string& name) {
  auto study = study_named(name);
  if (!study.ok()) return study.status();
  if (!(*study)->calibration) {
    return Status::Error("study \"" + name +
                         "\" has no calibration fit (Study::calibration): nothing to calibrate");
  }
  const fs::path file = scenarios_dir() / name / "validate.toml";
  auto validation = load_scenario(file, {});
  if (!validation.ok()) return validation.status();
  if (!validation->validate || validation->validate->calibration_source.empty()) {
    return Status::Error(file.string() +
                         ": no [validate] calibration_scenario, expected the scenario whose "
                         "runs the constants are fitted on");
  }
  auto calibration = load_calibration_scenario(*validation);
  if (!calibration.ok()) return calibration.status();
  if (auto outside = calibration_outside(*validation, *calibration); !outside.ok()) return outside;
  return PlannedCalibration{*study, std::move(calibration).value(),
                            calibration_scenario_file(*validation->validate)};
}

// The scenario's runs in one engine (the sim's at `wake_up` per point, when given); nullopt with the exit
// status when they could not be made.
std::optional<RunTable> run_in(const Scenario& scenario, int jobs, int& status,
                               std::vector<double> wake_up = {}) {
  RunOptions options = run_options_for(scenario, jobs);
  options.wake_up = std::move(wake_up);
  auto table = run_scenario(scenario, options);
  if (!table.ok()) {
    status = fail_input(table.status().message());
    return std::nullopt;
  }
  if (table->interrupted) {
    status = kExitInterrupted;
    return std::nullopt;
  }
  return std::move(table).value();
}

int calibrate(const PlannedCalibration& planned, const fs::path& out) {
  const Scenario& real = planned.scenario;
  const CalibrationHook& hook = *planned.study->calibration;
  std::fprintf(stderr, "calibrate %s: %s, %zu points x %d seeds in the real engine%s\n",
               planned.study->name.c_str(), real.name.c_str(), real.grid.size(), real.seeds,
               hook.needs_sim ? ", then in the sim" : "");
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  auto wake_ups = probe_wake_ups(real, "calibrate " + planned.study->name);
  if (!wake_ups.ok()) return fail_input(wake_ups.status().message());
  auto real_table = run_in(real, 1, status);  // one real run at a time: they measure time
  if (!real_table) return status;
  std::optional<Scenario> sim;
  std::optional<RunTable> sim_table;
  if (hook.needs_sim) {
    auto loaded = load_scenario(planned.file, {{"scenario.engine", "\"sim\""}});
    if (!loaded.ok()) return fail_input(loaded.status().message());
    sim = std::move(loaded).value();
    sim_table = run_in(*sim, 0, status, wake_ups->seconds());
    if (!sim_table) return status;
  }
  auto fitted = hook.fit(*real_table, sim_table ? &*sim_table : nullptr, nullptr);
  if (!fitted.ok()) {
    std::fprintf(stderr, "perflab: calibrate %s: %s\n", planned.study->name.c_str(),
                 fitted.status().message().c_str());
    return kExitFailedRuns;
  }
  CalibrationFit fit = std::move(fitted).value();
  if (auto measured = wake_ups->measured()) fit.measured.push_back(*measured);
  const fs::path toml = calibration_file(out, planned.study->name, real.name);
  std::optional<std::vector<CalibratedConstant>> before;
  std::error_code ec;
  const fs::path committed = calibration_file(results_dir(), planned.study->name, real.name);
  if (fs::exists(committed, ec)) {
    auto read = read_calibration(committed);
    if (!read.ok()) return fail_input(read.status().message());
    before = std::move(read).value();
  }
  std::cout << "### " << real.name << ": calibration of " << planned.study->name << "\n\n"
            << calibration_text(fit, before);
  std::optional<Rederivation> rederivation;
  if (before) {  // do the committed constants still fit these runs, as well as they fit their own?
    auto again = hook.fit(*real_table, sim_table ? &*sim_table : nullptr, &*before);
    auto own = read_calibration_residuals(fs::path(committed).replace_extension(".csv"));
    if (!own.ok()) return fail_input(own.status().message());
    if (again.ok()) {
      rederivation = rederive(again->residuals, *own,
                              (fs::path("results") / fs::relative(committed, results_dir())).string());
      if (rederivation) std::cout << rederivation_text(*rederivation);
    } else {  // the model's constants changed since that calibration: nothing to re-derive
      std::cout << "the committed calibration (" << committed.string()
                << ") cannot be scored on these runs, its constants are not this fit's: "
                << again.status().message() << "\n";
    }
  }
  std::cout << "\n";
  const Provenance& run = current_provenance();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string record = fmt::format("{}: {} (wall time {:.0f} s)", run.ran(), run.command, seconds);
  fs::create_directories(toml.parent_path(), ec);
  for (auto [file, text] : {std::pair{toml, calibration_toml(fit, real.name, record, rederivation)},
                            std::pair{fs::path(toml).replace_extension(".csv"), calibration_csv(fit)}}) {
    if (auto written = write_file(file.string(), text); !written.ok()) return fail_input(written.message());
    std::fprintf(stderr, "calibrate: wrote %s\n", file.c_str());
  }
  return 0;
}

// Said before the first run: how long the committed calibrations of the same scenarios took.
void print_stated_time(const std::vector<PlannedCalibration>& plan) {
  double total = 0;
  std::vector<std::string> unknown;
  for (const auto& planned : plan) {
    const auto seconds =
        stated_wall_time(calibration_file(results_dir(), planned.study->name, planned.scenario.name));
    if (seconds) {
      total += *seconds;
    } else {
      unknown.push_back(planned.study->name);
    }
  }
  std::string text = fmt::format("calibrate: {} stud{}", plan.size(), plan.size() == 1 ? "y" : "ies");
  if (unknown.size() < plan.size()) text += fmt::format("; the committed calibrations took {:.0f} s", total);
  if (!unknown.empty()) text += "; no committed calibration of " + join(unknown) + " states its time";
  std::fprintf(stderr, "%s\n", text.c_str());
}

}  // namespace

int cmd_calibrate(const std::vector<std::string>& studies, const std::string& out) {
  std::vector<std::string> chosen = studies;
  if (chosen.empty()) {
    for (const Study* study : all_studies()) {
      std::error_code ec;
      if (study->calibration && fs::exists(scenarios_dir() / study->name / "validate.toml", ec))
        chosen.push_back(study->name);
    }
  }
  std::vector<PlannedCalibration> plan;  // every check before the first run
  for (const auto& name : chosen) {
    auto planned = plan_calibration(name);
    if (!planned.ok()) return fail_input(planned.status().message());
    plan.push_back(std::move(planned).value());
  }
  const fs::path folder = out.empty() ? results_dir() : fs::path(out);
  for (const auto& planned : plan) {  // a folder that cannot take the result is said before the first run
    if (auto writable = writable_folder((folder / planned.study->name).string()); !writable.ok())
      return fail_input(writable.message());
  }
  print_stated_time(plan);
  int status = 0;
  for (const auto& planned : plan) {
    int one = calibrate(planned, folder);
    if (one == kExitBadInput || one == kExitInterrupted) return one;
    status = std::max(status, one);
  }
  return status;
}

}  // namespace perflab
