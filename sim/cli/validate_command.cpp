// perflab validate: each study's committed validation scenario (scenarios/<study>/validate.toml) in the sim
// engine and in the real engine, with the same seeds and so the same injected draws, and the report of how
// far apart they are (sim/gate/validation.h). The real engine runs R passes over the grid one after another,
// one run at a time, so a point's repetitions are spaced by the other points' runs. Calibrated constants of
// the [validate] table are set on the sim side only, and printed (read from the committed calibration, or,
// with calibrate_in_window, fitted again in this window by `perflab calibrate STUDY` before the study's first
// run); so is, for a study that takes it, this machine's wake-up latency, probed at each point before the
// runs (sim/cli/wake_up_probes.h). A study whose
// check replays each real run into its model within the run (pipe) declares `pairs` instead: same-run mode, R
// passes of its own engine. Everything it can check without running (the studies named, --out, every run's
// [validate] table, its ratios against the grid as --quick and --set leave it, the calibration's points) is
// checked before the first run, and then the time the committed runs of the same scenarios took is stated.
// With more than one run (no argument: every study with a validate.toml) it ends with one summary table.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <thread>

#include <fmt/format.h>

#include "sim/cli/commands.h"
#include "sim/cli/wake_up_probes.h"
#include "sim/gate/calibration_record.h"
#include "sim/gate/provenance.h"
#include "sim/gate/validation.h"
#include "sim/report/validation_report.h"
#include "sim/runner/run_outputs.h"
#include "sim/scenario/calibration_scenario.h"
#include "sim/stats/median_interval.h"
#include "sim/stats/stats.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

std::optional<fs::path> validation_file(const std::string& study) {
  fs::path file = scenarios_dir() / study / "validate.toml";
  std::error_code ec;
  return fs::is_regular_file(file, ec) ? std::optional<fs::path>(file) : std::nullopt;
}

// Per point of `table`: the mean of `metric` over its successful seeds (NaN when none succeeded).
std::vector<double> point_means(const RunTable& table, const std::string& metric) {
  std::vector<double> means;
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    auto values = table.values(p, metric);
    means.push_back(values.empty() ? NAN : stats::summarize(values).mean);
  }
  return means;
}

std::string failures(const RunTable& table, const std::string& what) {
  for (const auto& row : table.rows) {
    if (row.failed()) {
      return fmt::format("{} of {} {} runs failed; first: {} seed {}: {}", table.failed(), table.rows.size(),
                         what, point_label(*table.scenario, row.point), row.seed, row.error);
    }
  }
  return "";
}

// The real runs' oversleep, when the study reports it.
std::string oversleep_note(const std::vector<RunTable>& passes) {
  std::vector<double> means;
  double worst = 0;
  for (const auto& pass : passes) {
    for (const auto& row : pass.rows) {
      if (!row.ok() || row.metrics.count("oversleep_mean_s") == 0) continue;
      means.push_back(row.metrics.at("oversleep_mean_s"));
      worst = std::max(worst, row.metrics.at("oversleep_max_s"));
    }
  }
  if (means.empty()) return "";
  return fmt::format(
      "oversleep of the real runs' sleeps: median over runs of the mean {:.0f} µs, worst {:.2f} ms",
      stats::quantile(means, 0.5) * 1e6, worst * 1e3);
}

// Whether the real runs got real-time priority, when the study reports it (sim/engines/real/realtime.h).
std::string realtime_note(const std::vector<RunTable>& passes) {
  int runs = 0, realtime = 0;
  for (const auto& pass : passes) {
    for (const auto& row : pass.rows) {
      if (!row.ok() || row.metrics.count("realtime") == 0) continue;
      ++runs;
      if (row.metrics.at("realtime") > 0) ++realtime;
    }
  }
  if (runs == 0) return "";
  return fmt::format(
      "real-time priority (SCHED_FIFO): obtained in {} of {} real runs{}", realtime, runs,
      realtime < runs ? "; the others ran at normal priority, open to the machine's load" : "");
}

// Said only when the environment changes how the real runs allocate (provenance.h, allocator_environment).
std::string allocator_note() {
  const std::string environment = current_provenance().allocator;
  if (environment.empty()) return "";
  return "allocator environment: " + environment +
         " (not glibc's defaults: where the real runs' memory lies, and what walking it costs, can differ)";
}

struct StudyOutcome {
  StudyOutcome(int status, std::optional<ValidationReport> report = {}, std::string problem = {})
      : status(status), report(std::move(report)), problem(std::move(problem)) {}
  int status;
  std::optional<ValidationReport> report;
  std::string problem;  // why there is no report, or that runs failed
};

// The report's skeleton: the scenario's points, no values yet.
ValidationInput skeleton(const Scenario& scenario, const ValidateSpec& spec,
                         std::vector<std::string> metrics) {
  ValidationInput input;
  input.scenario = scenario.name;
  input.column_names = scenario.param_columns;
  input.metrics = std::move(metrics);
  input.spec = spec;
  input.points.resize(scenario.grid.size());
  for (size_t p = 0; p < scenario.grid.size(); ++p) {
    input.points[p].columns = scenario.grid[p].column_values;
    input.points[p].labels = scenario.grid[p].column_labels;
    input.points[p].real.resize(input.metrics.size());
  }
  return input;
}

// Runs `scenario` R times, one pass over the grid after another; nullopt with the exit status if it could
// not.
std::optional<std::vector<RunTable>> passes_of(const Scenario& scenario, int repetitions, int& status) {
  std::vector<RunTable> passes;
  for (int r = 0; r < repetitions; ++r) {
    auto pass = run_scenario(scenario, run_options_for(scenario, 1));
    if (!pass.ok()) {
      status = fail_input(pass.status().message());
      return std::nullopt;
    }
    if (pass->interrupted) {
      status = say_interrupted("validate " + scenario.name, pass->interrupted, ", no report written");
      return std::nullopt;
    }
    passes.push_back(std::move(pass).value());
  }
  return passes;
}

// A calibrated constant's provenance in the report's notes: ", measured by SCENARIO (constants: FILE)", and
// with calibrate_in_window "measured by SCENARIO in this validation's window (constants: FILE; committed V)".
std::string measured_by(const ValidateSpec& spec, const std::string& key) {
  if (spec.calibration_source.empty()) return "";
  std::string text = ", measured by " + spec.calibration_source;
  if (spec.calibrate_in_window) text += " in this validation's window";
  std::vector<std::string> where;
  if (!spec.calibration_constants.empty()) where.push_back("constants: " + spec.calibration_constants);
  if (auto committed = spec.calibration_committed.find(key); committed != spec.calibration_committed.end())
    where.push_back("committed " + committed->second);
  return where.empty() ? text : text + " (" + join(where, "; ") + ")";
}

// Sim against real: the sim once, then R real passes, the same seeds.
StudyOutcome sim_against_real(const fs::path& file, const std::vector<Override>& overrides,
                              const ValidateSpec& spec, ValidationInput& input, std::vector<RunTable>& passes,
                              bool& failed_runs) {
  // Each engine gets the overrides of the parameters it uses: a `--set params.X` that only one engine reads
  // (the dispatcher's sched_fifo, the real engine's; a sim-only cost) goes to that engine's side alone.
  auto plain = load_scenario(file, {});
  if (!plain.ok()) return {fail_input(plain.status().message()), {}};
  const Study& study = *plain->study;
  auto with = [&](Engine engine, const std::vector<std::pair<std::string, std::string>>& extra) {
    std::vector<Override> all;
    for (const Override& o : overrides) {
      const ParamSpec* param = o.key.rfind("params.", 0) == 0 ? study.find_param(o.key.substr(7)) : nullptr;
      if (param == nullptr || param->used_by(engine)) all.push_back(o);
    }
    all.push_back({"scenario.engine", std::string("\"") + engine_name(engine) + "\""});
    for (const auto& [key, value] : extra) all.push_back({key, value});
    return load_scenario(file, all);
  };
  auto real = with(Engine::kReal, {});
  if (!real.ok()) return {fail_input(real.status().message()), {}};
  auto sim_settings = spec.calibration;  // then [validate] sim's
  sim_settings.insert(sim_settings.end(), spec.sim.begin(), spec.sim.end());
  auto sim = with(Engine::kSim, sim_settings);
  if (!sim.ok()) return {fail_input(sim.status().message()), {}};
  std::fprintf(stderr, "validate %s: %zu points x %d seeds, sim, then %d real passes\n", real->name.c_str(),
               real->grid.size(), real->seeds, spec.repetitions);
  auto wake_ups = probe_wake_ups(*real, "validate " + real->name);
  if (!wake_ups.ok()) return {fail_input(wake_ups.status().message()), {}};
  RunOptions sim_options = run_options_for(*sim, 0);
  sim_options.wake_up = wake_ups->seconds();
  auto sim_table = run_scenario(*sim, sim_options);
  if (!sim_table.ok()) return {fail_input(sim_table.status().message()), {}};
  if (sim_table->interrupted)
    return {say_interrupted("validate " + sim->name, sim_table->interrupted, ", no report written"), {}};
  int status = 0;
  auto real_passes = passes_of(*real, spec.repetitions, status);
  if (!real_passes) return {status, {}};
  passes = std::move(*real_passes);

  input = skeleton(*real, spec, spec.metrics);
  for (size_t m = 0; m < spec.metrics.size(); ++m) {
    auto sims = point_means(*sim_table, spec.metrics[m]);
    for (size_t p = 0; p < sims.size(); ++p) input.points[p].sim.push_back(sims[p]);
    for (const auto& pass : passes) {
      auto reals = point_means(pass, spec.metrics[m]);
      for (size_t p = 0; p < reals.size(); ++p) {
        if (!std::isnan(reals[p])) input.points[p].real[m].push_back(reals[p]);
      }
    }
  }
  input.notes.push_back(
      fmt::format("{} seeds per point, the same in both engines; real: median of {} spaced "
                  "repetitions, its order-statistic interval (it covers the median {:.1f}% of the time)",
                  real->seeds, spec.repetitions, 100 * median_interval_coverage(spec.repetitions)));
  auto unquoted = [](const std::string& value) {
    return value.size() >= 2 && (value.front() == '\'' || value.front() == '"')
               ? value.substr(1, value.size() - 2)
               : value;
  };
  for (const auto& [key, value] : spec.calibration) {
    input.notes.push_back("calibration (sim only): " + key.substr(key.find('.') + 1) + " = " +
                          unquoted(value) + measured_by(spec, key));
  }
  for (const auto& [key, value] : spec.sim) {
    input.notes.push_back("sim side only: " + key.substr(key.find('.') + 1) + " = " + unquoted(value) +
                          " ([validate] sim: the real engine runs the real thing, with no such setting)");
  }
  if (auto note = wake_ups->note(); !note.empty()) input.notes.push_back(note);
  if (auto note = failures(*sim_table, "sim"); !note.empty()) {
    input.notes.push_back(note);
    failed_runs = true;
  }
  return {0, {}};
}

// Same-run mode: the scenario in its own engine R times; each row holds both the model's value and the
// real one of the same run (pipe: the kernel's reads and the model's on that run's recorded writes). The
// calibration is set on the scenario: only the model's side of each run reads it.
// `calibrated` holds that scenario as long as the passes that point to it.
StudyOutcome same_run(const fs::path& file, const std::vector<Override>& overrides, const ValidateSpec& spec,
                      ValidationInput& input, std::vector<RunTable>& passes,
                      std::optional<Scenario>& calibrated) {
  std::vector<Override> all = overrides;
  for (const auto& [key, value] : spec.calibration) all.push_back({key, value});
  auto loaded = load_scenario(file, all);
  if (!loaded.ok()) return {fail_input(loaded.status().message()), {}};
  calibrated = std::move(loaded).value();
  const Scenario& scenario = *calibrated;
  std::fprintf(stderr, "validate %s: %zu points, %d passes of the same-run check\n", scenario.name.c_str(),
               scenario.grid.size(), spec.repetitions);
  int status = 0;
  auto runs = passes_of(scenario, spec.repetitions, status);
  if (!runs) return {status, {}};
  passes = std::move(*runs);
  std::vector<std::string> names;
  for (const auto& pair : spec.pairs) names.push_back(pair.name);
  input = skeleton(scenario, spec, names);
  for (size_t m = 0; m < spec.pairs.size(); ++m) {
    std::vector<std::vector<double>> models(scenario.grid.size());
    for (const auto& pass : passes) {
      auto model = point_means(pass, spec.pairs[m].model);
      auto real = point_means(pass, spec.pairs[m].real);
      for (size_t p = 0; p < model.size(); ++p) {
        if (std::isnan(model[p]) || std::isnan(real[p]) || real[p] < 0) continue;
        models[p].push_back(model[p]);
        input.points[p].real[m].push_back(real[p]);
      }
    }
    for (size_t p = 0; p < models.size(); ++p)
      input.points[p].sim.push_back(models[p].empty() ? NAN : stats::quantile(models[p], 0.5));
  }
  std::vector<std::string> pairs;
  for (const auto& pair : spec.pairs)
    pairs.push_back(pair.name + ": " + pair.model + " against " + pair.real);
  input.notes.push_back(
      fmt::format("same run: the model replays each real run ({} engine, {} passes); "
                  "sim = the model's median over the passes, real = the real median with its "
                  "order-statistic interval (it covers the median {:.1f}% of the time); {}",
                  engine_name(scenario.engine), spec.repetitions,
                  100 * median_interval_coverage(spec.repetitions), join(pairs, "; ")));
  for (const auto& [key, value] : spec.calibration) {
    input.notes.push_back("calibration (the model's side): " + key.substr(key.find('.') + 1) + " = " + value +
                          measured_by(spec, key));
  }
  return {0, {}};
}

// One validation run as planned before anything runs: the study's scenario with the user's overrides (and
// [quick]'s, and one of its [validate] latencies), loaded and checked.
struct PlannedRun {
  std::string label;  // "share at 0.5ms"
  fs::path file;
  std::vector<Override> overrides;
  Scenario scenario;
};

StudyOutcome validate_run(const PlannedRun& run) {
  const ValidateSpec& spec = *run.scenario.validate;
  auto start = std::chrono::steady_clock::now();
  const std::string started = utc_now();  // when, so a committed report can be told from an earlier one
  double load_before[1] = {0};            // the machine's own load: the real passes' threads make the end's
  getloadavg(load_before, 1);
  ValidationInput input;
  std::optional<Scenario> calibrated;  // same-run mode: the scenario the passes point to
  std::vector<RunTable> passes;
  bool failed_runs = false;
  StudyOutcome ran = spec.pairs.empty()
                         ? sim_against_real(run.file, run.overrides, spec, input, passes, failed_runs)
                         : same_run(run.file, run.overrides, spec, input, passes, calibrated);
  if (ran.status != 0) return ran;
  for (const auto& note : {oversleep_note(passes), realtime_note(passes), allocator_note()}) {
    if (!note.empty()) input.notes.push_back(note);
  }
  for (const auto& pass : passes) {
    if (auto note = failures(pass, "real"); !note.empty()) {
      input.notes.push_back(note);
      failed_runs = true;
    }
  }
  std::string problem = failed_runs ? "some runs failed (see its notes)" : "";
  double load[1] = {0};
  getloadavg(load, 1);
  input.notes.push_back(fmt::format(
      "wall time {:.0f} s, load average before {:.2f}, at the end {:.2f} on {} cores; started {}",
      seconds_since(start), load_before[0], load[0], std::thread::hardware_concurrency(), started));
  // What made it, with --quick and --set as typed: a narrowed grid's report is told from the default one's.
  input.notes.push_back("`" + current_provenance().command + "`: " + current_provenance().ran());
  auto report = make_validation_report(std::move(input));
  if (!report.ok()) {
    std::fprintf(stderr, "perflab: %s\n", report.status().message().c_str());
    return {kExitFailedRuns, {}, report.status().message()};
  }
  int status = report->held() && !failed_runs ? 0 : kExitFailedRuns;
  return {status, std::move(report).value(), problem};
}

// "constant(0.5ms)" -> "0.5ms"; any other distribution with its punctuation made file-name safe.
std::string latency_label(const std::string& latency) {
  std::string label = latency;
  if (label.rfind("constant(", 0) == 0 && label.back() == ')') label = label.substr(9, label.size() - 10);
  for (char& c : label) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
  }
  return label;
}

// The calibration's points lie outside the grid, and its constants come from one place: the committed
// results/<study>/<calibration scenario>.calibration.toml that `perflab calibrate` writes, or (for a study
// not yet moved to it) validate.toml's own [validate] calibration table; never both.
Status use_committed_calibration(Scenario& scenario) {
  ValidateSpec& spec = *scenario.validate;
  if (spec.calibration_source.empty()) return Status::OK();
  auto calibration = load_calibration_scenario(scenario);
  if (!calibration.ok()) return calibration.status();
  if (auto outside = calibration_outside(scenario, *calibration); !outside.ok()) return outside;
  const fs::path committed = calibration_file(results_dir(), scenario.study->name, calibration->name);
  std::error_code ec;
  if (!fs::exists(committed, ec)) {
    if (!spec.calibration.empty() || !scenario.study->calibration) return Status::OK();
    return Status::Error(scenario.name + ": no committed calibration " + committed.string() +
                         ", expected the constants `perflab calibrate " + scenario.study->name + "` writes");
  }
  if (!spec.calibration.empty()) {
    return Status::Error(scenario.name +
                         ": the calibration is typed twice, in [validate] calibration and in " +
                         committed.string() + "; keep the file (perflab calibrate writes it)");
  }
  auto constants = read_calibration(committed);
  if (!constants.ok()) return constants.status();
  for (const auto& c : *constants) spec.calibration.emplace_back("params." + c.param, c.toml_value());
  spec.calibration_constants = fs::relative(committed, results_dir().parent_path(), ec).string();
  return Status::OK();
}

// [validate] calibrate_in_window: the study's calibration made again in this window, once per validate (by
// the first of its runs that asks), written beside the reports (out/calibration-in-window/), and the run's
// sim set at its constants; the committed constants stay in the run's notes beside them.
Status use_calibration_in_window(PlannedRun& run, const std::string& out,
                                 std::map<std::string, std::vector<CalibratedConstant>>& made, int& status) {
  ValidateSpec& spec = *run.scenario.validate;
  const std::string& study = run.scenario.study->name;
  const fs::path folder = out.empty() ? fs::path() : fs::path(out) / "calibration-in-window";
  auto found = made.find(study);
  if (found == made.end()) {
    auto constants = calibrate_in_this_window(study, folder, status);
    if (!constants.ok()) return constants.status();
    found = made.emplace(study, std::move(constants).value()).first;
  }
  spec.calibration_committed.clear();
  for (const auto& [key, value] : spec.calibration) spec.calibration_committed[key] = value;
  spec.calibration.clear();
  for (const auto& c : found->second) spec.calibration.emplace_back("params." + c.param, c.toml_value());
  auto calibration = load_calibration_scenario(run.scenario);
  if (!calibration.ok()) return calibration.status();
  spec.calibration_constants = folder.empty() ? "printed above, not written (no --out)"
                                              : (folder / (calibration->name + ".calibration.toml")).string();
  return Status::OK();
}

// A user's own [validate] table that names no calibration takes its study's (validate.toml's), as a file
// without a table does: loosening a bound must not silently run the sim uncalibrated.
Status inherit_study_calibration(ValidateSpec& spec, const Study& study) {
  if (!spec.calibration.empty() || !spec.calibration_source.empty()) return Status::OK();
  auto own = validation_file(study.name);
  if (!own) return Status::OK();
  auto loaded = load_scenario(*own, {});
  if (!loaded.ok()) return loaded.status();
  if (!loaded->validate) return Status::OK();
  spec.calibration = loaded->validate->calibration;
  spec.calibration_source = loaded->validate->calibration_source;
  spec.calibrate_in_window = loaded->validate->calibrate_in_window;
  return Status::OK();
}

// A user's own scenario (perflab validate FILE.toml) without a [validate] table: judged on duration_s at the
// default criteria (docs/validation.md), with its study's own calibration (validate.toml's).
Status default_validation(Scenario& scenario) {
  const Study& study = *scenario.study;
  if (!study.run_real) {
    return Status::Error(scenario.name + ": study " + study.name +
                         " has no real engine, so there is nothing to validate its sim against");
  }
  for (Engine engine : {Engine::kSim, Engine::kReal}) {
    const auto& metrics = study.metrics_for(engine);
    if (std::none_of(metrics.begin(), metrics.end(), [](const auto& m) { return m.name == "duration_s"; })) {
      return Status::Error(scenario.name + ": no [validate] table, and study " + study.name +
                           " has no duration_s in both engines to judge by default; add [validate] metrics = "
                           "[...] (docs/validation.md)");
    }
  }
  ValidateSpec spec;
  if (auto inherited = inherit_study_calibration(spec, study); !inherited.ok()) return inherited;
  scenario.validate = spec;
  return Status::OK();
}

// Everything validate can check without running, for one run: the [validate] table, the ratios against the
// grid as --quick and --set left it (a ratio this grid cannot form is said now, and reported "not judged"),
// and the calibration's points.
Result<PlannedRun> plan_run(std::string label, const fs::path& file, std::vector<Override> overrides,
                            bool users_file) {
  auto loaded = load_scenario(file, overrides);
  if (!loaded.ok()) return loaded.status();
  Scenario planned = std::move(loaded).value();
  if (!planned.validate && users_file) {
    if (auto defaults = default_validation(planned); !defaults.ok()) return defaults;
  } else if (planned.validate && users_file && planned.study->calibration) {
    if (auto inherited = inherit_study_calibration(*planned.validate, *planned.study); !inherited.ok())
      return inherited;
  }
  if (!planned.validate)
    return Status::Error(file.string() + ": no [validate] table, expected the criteria to judge by");
  const ValidateSpec& spec = *planned.validate;
  ValidationInput skeleton_input =
      skeleton(planned, spec, spec.pairs.empty() ? spec.metrics : std::vector<std::string>{});
  for (const auto& ratio : spec.ratios) {
    auto pairs = ratio_pairs(skeleton_input, ratio);
    if (!pairs.ok()) return Status::Error(file.string() + ": " + pairs.status().message());
    if (!pairs->not_judged.empty()) {
      std::fprintf(stderr, "validate %s: ratio %s / %s will be reported not judged: %s\n", label.c_str(),
                   ratio.numerator.c_str(), ratio.denominator.c_str(), pairs->not_judged.c_str());
    }
  }
  if (auto calibrated = use_committed_calibration(planned); !calibrated.ok()) return calibrated;
  return PlannedRun{std::move(label), file, std::move(overrides), std::move(planned)};
}

Result<std::vector<PlannedRun>> plan_file(const std::string& study, const fs::path& file, bool users_file,
                                          bool quick, const std::vector<Override>& sets);

// The runs of `name`, a study (its scenarios/<study>/validate.toml, then each file its [validate] `also`
// lists) or a user's scenario file (FILE.toml): once per latency of its [validate] table (or once, when it
// names none or the user set network.latency).
Result<std::vector<PlannedRun>> plan_study(const std::string& name, bool quick,
                                           const std::vector<Override>& sets) {
  const bool users_file = fs::path(name).extension() == ".toml";
  std::optional<fs::path> file;
  if (users_file) {
    auto found = find_scenario_file(name);
    if (!found.ok()) return found.status();
    file = *found;
  } else {
    auto study = study_named(name);
    if (!study.ok()) return study.status();
    file = validation_file(name);
  }
  const std::string study = users_file ? file->stem().string() : name;
  if (!file) {
    return Status::Error("study \"" + study + "\" has no validation scenario, expected " +
                         (scenarios_dir() / study / "validate.toml").string());
  }
  auto first = plan_file(study, *file, users_file, quick, sets);
  if (!first.ok() || users_file) return first;
  std::vector<PlannedRun> runs = std::move(first).value();
  const std::vector<std::string> also = runs.front().scenario.validate->also;  // the file's, whatever --set
  for (const std::string& further : also) {
    auto more = plan_file(study, file->parent_path() / further, false, quick, sets);
    if (!more.ok()) return more.status();
    for (auto& run : std::move(more).value()) runs.push_back(std::move(run));
  }
  return runs;
}

// The runs of one validation scenario file (plan_study).
Result<std::vector<PlannedRun>> plan_file(const std::string& study, const fs::path& file, bool users_file,
                                          bool quick, const std::vector<Override>& sets) {
  auto plain = load_scenario(file, sets);
  if (!plain.ok()) return plain.status();
  std::vector<Override> overrides;
  if (quick) overrides = plain->quick;
  if (quick && plain->quick.empty()) {
    std::fprintf(
        stderr,
        "validate %s: note: %s has no [quick] table, so --quick runs its whole grid (%zu points x %d "
        "seeds); narrow it with --set (docs/your-own-workload.md)\n",
        study.c_str(), file.c_str(), plain->grid.size(), plain->seeds);
  }
  overrides.insert(overrides.end(), sets.begin(), sets.end());
  const bool latency_set =
      std::any_of(sets.begin(), sets.end(), [](const Override& o) { return o.key == "network.latency"; });
  std::vector<PlannedRun> runs;
  if (latency_set || !plain->validate || plain->validate->latencies.empty()) {
    auto run = plan_run(study, file, overrides, users_file);
    if (!run.ok()) return run.status();
    runs.push_back(std::move(run).value());
    return runs;
  }
  for (const auto& latency : plain->validate->latencies) {
    std::vector<Override> with = overrides;
    with.push_back({"network.latency", "\"" + latency + "\""});
    with.push_back({"scenario.name", "\"" + plain->name + "-" + latency_label(latency) + "\""});
    auto run = plan_run(study + " at " + latency_label(latency), file, with, users_file);
    if (!run.ok()) return run.status();
    PlannedRun planned = std::move(run).value();
    ValidateSpec& spec = *planned.scenario.validate;
    spec.repetitions = spec.repetitions_at_latency(latency);
    runs.push_back(std::move(planned));
  }
  return runs;
}

// The time the committed run of the same scenario took ("wall time N s" in its report: results/<study>/, or
// results/validate-quick/ for --quick); nullopt when none is committed.
std::optional<double> committed_wall_time(const PlannedRun& run, bool quick) {
  const fs::path folder = results_dir() / (quick ? std::string("validate-quick") : run.scenario.study->name);
  return stated_wall_time(folder / (run.scenario.name + ".validate.md"));
}

// Said before the first run: how long the committed runs of the same scenarios took.
void print_stated_time(const std::vector<PlannedRun>& plan, bool quick, bool narrowed) {
  double total = 0;
  std::vector<std::string> unknown;
  for (const auto& run : plan) {
    if (auto seconds = committed_wall_time(run, quick)) {
      total += *seconds;
    } else {
      unknown.push_back(run.label);
    }
  }
  std::vector<std::string> parts;
  if (unknown.size() < plan.size()) {
    parts.push_back(fmt::format("the committed runs of the same scenarios took {:.0f} s{}", total,
                                quick ? " (results/validate-quick/)" : ""));
  }
  if (!unknown.empty()) parts.push_back("no committed run of " + join(unknown) + " to state its time from");
  std::map<std::string, std::optional<double>> in_window;  // per study that calibrates in this window
  for (const auto& run : plan) {
    const ValidateSpec& spec = *run.scenario.validate;
    if (!spec.calibrate_in_window || in_window.count(run.scenario.study->name) != 0) continue;
    auto calibration = load_calibration_scenario(run.scenario);
    std::optional<double> seconds;
    if (calibration.ok()) {
      if (auto stated = stated_calibration_run(
              calibration_file(results_dir(), run.scenario.study->name, calibration->name)))
        seconds = stated->seconds_a_window();
    }
    in_window[run.scenario.study->name] = seconds;
  }
  for (const auto& [study, seconds] : in_window) {
    parts.push_back("plus " + study + "'s calibration in this window, before its first run" +
                    (seconds ? fmt::format(" (a window of the committed one took {:.0f} s)", *seconds) : ""));
  }
  if (narrowed) parts.emplace_back("--set changes the grid, so this one may take more or less");
  std::fprintf(stderr, "validate: %zu run(s); %s\n", plan.size(), join(parts, "; ").c_str());
}

}  // namespace

int cmd_validate(const std::vector<std::string>& studies, bool quick, const std::vector<std::string>& sets,
                 const std::string& out) {
  std::vector<Override> overrides;
  for (const auto& text : sets) {
    auto o = parse_override(text);
    if (!o.ok()) return fail_input(o.status().message());
    if (o->key == "scenario.engine") {
      return fail_input(
          "--set scenario.engine: validate runs each point in both engines itself (or, in "
          "same-run mode, in the engine its validate.toml names); it takes no engine");
    }
    overrides.push_back(*o);
  }
  std::vector<std::string> chosen;
  for (const auto& name : studies) {  // a study named twice is validated once: its report has one name
    if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
  }
  if (chosen.empty()) {
    for (const Study* study : all_studies()) {
      if (validation_file(study->name)) chosen.push_back(study->name);
    }
  }
  if (!out.empty()) {
    if (auto writable = check_writable(out, true, "--out"); !writable.ok())
      return fail_input(writable.message());
  }
  std::vector<PlannedRun> plan;  // every check that needs no run, for every study, before the first run
  for (const auto& name : chosen) {
    auto runs = plan_study(name, quick, overrides);
    if (!runs.ok()) return fail_input(runs.status().message());
    for (auto& run : runs.value()) plan.push_back(std::move(run));
  }
  if (!out.empty()) {  // made once every input is good: a refused run leaves no empty folder behind
    if (auto writable = writable_folder(out); !writable.ok()) return fail_input(writable.message());
  }
  print_stated_time(plan, quick, !overrides.empty());
  if (out.empty()) {
    std::fprintf(stderr,
                 "validate: the reports go to stdout only; --out DIR also writes DIR/<scenario>.validate.md "
                 "and .validate.csv, which the plots, the site and the NOTES blocks read\n");
  }
  int status = 0;
  std::vector<StudyValidation> summary;
  std::map<std::string, std::vector<CalibratedConstant>> calibrated;  // in this window, per study
  for (auto& run : plan) {
    if (run.scenario.validate->calibrate_in_window) {
      int calibration_status = 0;
      if (auto made = use_calibration_in_window(run, out, calibrated, calibration_status); !made.ok()) {
        if (calibration_status == kExitBadInput || is_interrupted_exit(calibration_status))
          return calibration_status;
        std::fprintf(stderr, "perflab: validate %s: %s\n", run.label.c_str(), made.message().c_str());
        status = std::max(status, kExitFailedRuns);
        summary.push_back({run.label, std::nullopt, made.message()});
        continue;
      }
    }
    StudyOutcome outcome = validate_run(run);
    if (outcome.status == kExitBadInput || is_interrupted_exit(outcome.status)) return outcome.status;
    status = std::max(status, outcome.status);
    if (outcome.report) {
      std::cout << validation_markdown(*outcome.report) << "\n";
      std::cout.flush();
      if (!out.empty()) {
        fs::path stem = fs::path(out) / outcome.report->input.scenario;
        for (auto [suffix, text] : {std::pair{".validate.csv", validation_csv(*outcome.report)},
                                    std::pair{".validate.md", validation_markdown(*outcome.report)}}) {
          auto written = write_file(stem.string() + suffix, text);
          if (!written.ok()) return fail_input(written.message());
        }
      }
    }
    summary.push_back({run.label, std::move(outcome.report), outcome.problem});
  }
  if (summary.size() > 1) {
    std::string text = validation_summary(summary, studies.empty() ? "every study" : join(chosen));
    std::cout << text;
    if (!out.empty()) {
      const Provenance& run = current_provenance();
      const std::string record = fmt::format("\n- {}\n- `{}`\n", run.ran(), run.command);
      auto written = write_file((fs::path(out) / "validate-summary.md").string(), text + record);
      if (!written.ok()) return fail_input(written.message());
    }
  }
  return status;
}

}  // namespace perflab
