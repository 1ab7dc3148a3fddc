// perflab calibrate [STUDY...]: runs each study's calibration scenario (validate.toml's calibration_scenario,
// checked to lie outside the validation grid) in the real engine and, when its fit needs it, in the sim with
// the constants at their defaults (and, for a study that takes it, at this machine's wake-up latency probed
// before the real runs: sim/cli/wake_up_probes.h); fits the constants by the study's named method
// (Study::calibration); prints them with every point used and its residual, and how far each moved from the
// committed file; and writes <out>/<study>/<scenario>.calibration.toml and .calibration.csv (default out:
// results/), the file `perflab validate` reads its constants from. With --windows N it makes every study's
// runs in N windows --gap seconds apart and fits once on all of them (docs/validation.md, "Calibrations").
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <thread>

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

// A study's calibration as planned before any run: its scenario, loaded and checked, in both engines.
struct PlannedCalibration {
  const Study* study;
  Scenario scenario;            // as its file says (the real engine)
  std::optional<Scenario> sim;  // the same points in the sim, when the study's fit needs them
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
  PlannedCalibration planned{*study, std::move(calibration).value(), std::nullopt,
                             calibration_scenario_file(*validation->validate)};
  if ((*study)->calibration->needs_sim) {
    auto sim = load_scenario(planned.file, {{"scenario.engine", "\"sim\""}});
    if (!sim.ok()) return sim.status();
    planned.sim = std::move(sim).value();
  }
  return planned;
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
    status = say_interrupted("calibrate " + scenario.name, table->interrupted, ", nothing written");
    return std::nullopt;
  }
  return std::move(table).value();
}

// One window of a study's calibration runs, as made: what the fit reads (CalibrationWindow) owns these.
struct WindowRuns {
  std::string name;  // empty when the calibration has one window
  PointWakeUps wake_ups;
  RunTable real;
  std::optional<RunTable> sim;
  double seconds = 0;  // this study's runs in the window, its probes included
};

// The calibration scenario's runs in one window (said on stderr, with the window's name): the wake-ups
// probed, the real runs one at a time (they measure time), then the sim's at those wake-ups; nullopt with the
// exit status when they could not be made.
std::optional<WindowRuns> run_window(const PlannedCalibration& planned, const std::string& name,
                                     int& status) {
  std::fprintf(stderr, "calibrate %s: %s, %zu points x %d seeds in the real engine%s%s\n",
               planned.study->name.c_str(), planned.scenario.name.c_str(), planned.scenario.grid.size(),
               planned.scenario.seeds, planned.sim ? ", then in the sim" : "",
               name.empty() ? "" : (" (" + name + ")").c_str());
  const auto start = std::chrono::steady_clock::now();
  auto wake_ups = probe_wake_ups(planned.scenario, "calibrate " + planned.study->name);
  if (!wake_ups.ok()) {
    status = fail_input(wake_ups.status().message());
    return std::nullopt;
  }
  auto real = run_in(planned.scenario, 1, status);
  if (!real) return std::nullopt;
  WindowRuns runs{name, std::move(wake_ups).value(), std::move(real).value(), std::nullopt};
  if (planned.sim) {
    runs.sim = run_in(*planned.sim, 0, status, runs.wake_ups.seconds());
    if (!runs.sim) return std::nullopt;
  }
  runs.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return runs;
}

// Fits the study's constants on every window's runs, prints them with their residuals and, when a
// calibration is committed, whether its constants still fit these runs; writes the calibration files, and
// gives the constants to `fitted_out` when asked (no `toml`: written nowhere).
int fit_and_write(const PlannedCalibration& planned, const std::vector<WindowRuns>& made,
                  const std::string& windows_text, double seconds, const fs::path& toml,
                  std::vector<CalibratedConstant>* fitted_out = nullptr) {
  const CalibrationHook& hook = *planned.study->calibration;
  std::vector<CalibrationWindow> windows;
  PointWakeUps probed;  // every window's probes: the calibration file records their range
  for (const WindowRuns& runs : made) {
    windows.push_back({&runs.real, runs.sim ? &*runs.sim : nullptr, runs.name});
    probed.probes.insert(probed.probes.end(), runs.wake_ups.probes.begin(), runs.wake_ups.probes.end());
  }
  auto fitted = hook.fit(windows, nullptr);
  if (!fitted.ok()) {
    std::fprintf(stderr, "perflab: calibrate %s: %s\n", planned.study->name.c_str(),
                 fitted.status().message().c_str());
    return kExitFailedRuns;
  }
  CalibrationFit fit = std::move(fitted).value();
  if (fitted_out != nullptr) *fitted_out = fit.constants;
  if (auto measured = probed.measured()) fit.measured.push_back(*measured);
  fit.windows = windows_text;
  const std::string& name = planned.scenario.name;
  std::optional<std::vector<CalibratedConstant>> before;
  std::error_code ec;
  const fs::path committed = calibration_file(results_dir(), planned.study->name, name);
  if (fs::exists(committed, ec)) {
    auto read = read_calibration(committed);
    if (!read.ok()) return fail_input(read.status().message());
    before = std::move(read).value();
  }
  std::cout << "### " << name << ": calibration of " << planned.study->name << "\n\n"
            << calibration_text(fit, before);
  std::optional<Rederivation> rederivation;
  if (before) {  // do the committed constants still fit these runs, as well as they fit their own?
    auto again = hook.fit(windows, &*before);
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
  double study_seconds = 0;  // what stated_calibration_run reads for this study alone
  for (const WindowRuns& runs : made) study_seconds += runs.seconds / static_cast<double>(made.size());
  const std::string record = fmt::format("{}: {} (wall time {:.0f} s; {}'s runs {:.0f} s a window)",
                                         run.ran(), run.command, seconds, planned.study->name, study_seconds);
  if (toml.empty()) return 0;  // validate's calibration in its window, with no --out: printed only
  fs::create_directories(toml.parent_path(), ec);
  for (auto [file, text] : {std::pair{toml, calibration_toml(fit, name, record, rederivation)},
                            std::pair{fs::path(toml).replace_extension(".csv"), calibration_csv(fit)}}) {
    if (auto written = write_file(file.string(), text); !written.ok()) return fail_input(written.message());
    std::fprintf(stderr, "calibrate: wrote %s\n", file.c_str());
  }
  return 0;
}

std::string utc_hhmm() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  return fmt::format("{:02d}:{:02d} UTC", utc.tm_hour, utc.tm_min);
}

// Every study's runs in `windows` windows `gap_s` apart (each window runs every study once, so a window is
// one state of the machine for all of them), then one fit per study on all its windows. A study whose runs
// fail is reported and the others go on.
int calibrate_in_windows(const std::vector<PlannedCalibration>& plan, int windows, int gap_s,
                         const fs::path& out) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<WindowRuns>> made(plan.size());
  std::vector<int> status(plan.size(), 0);
  std::vector<std::string> starts;
  for (int w = 1; w <= windows; ++w) {
    if (w > 1) {
      std::fprintf(stderr, "calibrate: window %d of %d in %d s\n", w, windows, gap_s);
      std::this_thread::sleep_for(std::chrono::seconds(gap_s));
    }
    starts.push_back(utc_hhmm());
    const std::string name =
        windows == 1 ? "" : fmt::format("window {} of {}, {}", w, windows, starts.back());
    for (size_t i = 0; i < plan.size(); ++i) {
      if (status[i] != 0) continue;
      const PlannedCalibration& planned = plan[i];
      auto runs = run_window(planned, name, status[i]);
      if (status[i] == kExitBadInput || is_interrupted_exit(status[i])) return status[i];
      if (runs) made[i].push_back(std::move(runs).value());
    }
  }
  const std::string windows_text = windows_description(windows, gap_s, starts);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int worst = 0;
  for (size_t i = 0; i < plan.size(); ++i) {
    const int one = status[i] != 0
                        ? status[i]
                        : fit_and_write(plan[i], made[i], windows_text, seconds,
                                        calibration_file(out, plan[i].study->name, plan[i].scenario.name));
    if (one == kExitBadInput) return one;
    worst = std::max(worst, one);
  }
  return worst;
}

// Said before the first run: how long one window of the committed calibrations' runs took (each study's
// own runs, as its file states them; a file from before that states one run of several studies, counted
// once), and what the windows asked for now make of it.
void print_stated_time(const std::vector<PlannedCalibration>& plan, int windows, int gap_s) {
  std::map<std::string, double> a_window;  // per committed run
  std::vector<std::string> unknown;
  for (const auto& planned : plan) {
    const auto run =
        stated_calibration_run(calibration_file(results_dir(), planned.study->name, planned.scenario.name));
    if (run) {
      a_window[run->record] = run->seconds_a_window();
    } else {
      unknown.push_back(planned.study->name);
    }
  }
  double total = 0;
  for (const auto& [record, seconds] : a_window) total += seconds;
  std::string text = fmt::format("calibrate: {} stud{}", plan.size(), plan.size() == 1 ? "y" : "ies");
  if (unknown.size() < plan.size()) {
    text += fmt::format("; the committed calibrations' runs took {:.0f} s a window", total);
    if (windows > 1)
      text += fmt::format(", so {} windows {} s apart about {:.0f} s", windows, gap_s,
                          total * windows + (windows - 1) * gap_s);
  } else if (windows > 1) {
    text += fmt::format("; {} windows {} s apart", windows, gap_s);
  }
  if (!unknown.empty()) text += "; no committed calibration of " + join(unknown) + " states its time";
  std::fprintf(stderr, "%s\n", text.c_str());
}

}  // namespace

Result<std::vector<CalibratedConstant>> calibrate_in_this_window(const std::string& study,
                                                                 const fs::path& out, int& status) {
  auto planned = plan_calibration(study);
  if (!planned.ok()) {
    status = kExitBadInput;
    return planned.status();
  }
  auto runs = run_window(*planned, "in this validation's window", status);
  if (!runs) return Status::Error("the calibration's runs of " + study + " could not be made");
  std::vector<WindowRuns> made;
  made.push_back(std::move(runs).value());
  std::vector<CalibratedConstant> constants;
  const fs::path toml = out.empty() ? fs::path() : out / (planned->scenario.name + ".calibration.toml");
  status = fit_and_write(*planned, made, "", made.front().seconds, toml, &constants);
  if (status != 0) return Status::Error("the calibration of " + study + " in this window failed");
  return constants;
}

int cmd_calibrate(const std::vector<std::string>& studies, const std::string& out, int windows, int gap_s) {
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
  print_stated_time(plan, windows, gap_s);
  return calibrate_in_windows(plan, windows, gap_s, folder);
}

}  // namespace perflab
