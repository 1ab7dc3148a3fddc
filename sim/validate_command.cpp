// perflab validate: each study's committed validation scenario (scenarios/<study>/validate.toml) in the sim
// engine and in the real engine, with the same seeds and so the same injected draws, and the report of how
// far apart they are (sim/validation.h). The real engine runs R passes over the grid one after another, one
// run at a time, so a point's repetitions are spaced by the other points' runs. Calibrated constants of the
// [validate] table are set on the sim side only, and printed. A study whose check replays each real run
// into its model within the run (pipe) declares `pairs` instead: same-run mode, R passes of its own engine.
// With more than one study (no argument: every study with a validate.toml) it ends with one summary table.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "sim/commands.h"
#include "sim/outputs.h"
#include "sim/provenance.h"
#include "sim/stats/stats.h"
#include "sim/value_format.h"

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

// Sim against real: the sim once, then R real passes, the same seeds.
StudyOutcome sim_against_real(const fs::path& file, const std::vector<Override>& overrides,
                              const ValidateSpec& spec, ValidationInput& input, std::vector<RunTable>& passes,
                              bool& failed_runs) {
  auto with = [&](const char* engine, const std::vector<std::pair<std::string, std::string>>& extra) {
    std::vector<Override> all = overrides;
    all.push_back({"scenario.engine", std::string("\"") + engine + "\""});
    for (const auto& [key, value] : extra) all.push_back({key, value});
    return load_scenario(file, all);
  };
  auto real = with("real", {});
  if (!real.ok()) return {fail_input(real.status().message()), {}};
  auto sim = with("sim", spec.calibration);
  if (!sim.ok()) return {fail_input(sim.status().message()), {}};
  std::fprintf(stderr, "validate %s: %zu points x %d seeds, sim, then %d real passes\n", real->name.c_str(),
               real->grid.size(), real->seeds, spec.repetitions);
  auto sim_table = run_scenario(*sim, run_options_for(*sim, 0));
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
                  "repetitions, its 95% order-statistic interval",
                  real->seeds, spec.repetitions));
  for (const auto& [key, value] : spec.calibration) {
    std::string shown = value.size() >= 2 && (value.front() == '\'' || value.front() == '"')
                            ? value.substr(1, value.size() - 2)
                            : value;
    input.notes.push_back(
        "calibration (sim only): " + key.substr(key.find('.') + 1) + " = " + shown +
        (spec.calibration_source.empty() ? "" : ", measured by " + spec.calibration_source));
  }
  if (auto note = failures(*sim_table, "sim"); !note.empty()) {
    input.notes.push_back(note);
    failed_runs = true;
  }
  return {0, {}};
}

// Same-run mode: the scenario in its own engine R times; each row holds both the model's value and the
// real one of the same run (pipe: the kernel's reads and the model's on that run's recorded writes).
StudyOutcome same_run(const Scenario& scenario, const ValidateSpec& spec, ValidationInput& input,
                      std::vector<RunTable>& passes) {
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
                  "95% order-statistic interval; {}",
                  engine_name(scenario.engine), spec.repetitions, join(pairs, "; ")));
  return {0, {}};
}

StudyOutcome validate_study(const std::string& study, bool quick, const std::vector<Override>& sets) {
  auto file = validation_file(study);
  if (!file) {
    fail_input("study \"" + study + "\" has no validation scenario, expected " +
               (scenarios_dir() / study / "validate.toml").string());
    return {kExitBadInput, {}};
  }
  std::vector<Override> overrides;
  if (quick) {
    auto plain = load_scenario(*file, {});
    if (!plain.ok()) return {fail_input(plain.status().message()), {}};
    overrides = plain->quick;
  }
  overrides.insert(overrides.end(), sets.begin(), sets.end());
  auto scenario = load_scenario(*file, overrides);
  if (!scenario.ok()) return {fail_input(scenario.status().message()), {}};
  if (!scenario->validate) {
    return {fail_input(file->string() + ": no [validate] table, expected the criteria to judge by"), {}};
  }
  const ValidateSpec& spec = *scenario->validate;

  auto start = std::chrono::steady_clock::now();
  ValidationInput input;
  std::vector<RunTable> passes;
  bool failed_runs = false;
  StudyOutcome ran = spec.pairs.empty() ? sim_against_real(*file, overrides, spec, input, passes, failed_runs)
                                        : same_run(*scenario, spec, input, passes);
  if (ran.status != 0) return ran;
  if (auto note = oversleep_note(passes); !note.empty()) input.notes.push_back(note);
  for (const auto& pass : passes) {
    if (auto note = failures(pass, "real"); !note.empty()) {
      input.notes.push_back(note);
      failed_runs = true;
    }
  }
  std::string problem = failed_runs ? "some runs failed (see its notes)" : "";
  double load[1] = {0};
  getloadavg(load, 1);
  input.notes.push_back(fmt::format("wall time {:.0f} s, load average at the end {:.2f} on {} cores",
                                    seconds_since(start), load[0], std::thread::hardware_concurrency()));
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

// The study's validation, once per latency of its [validate] table (or once, when it names none or the
// user set network.latency).
std::vector<StudyValidation> validate_runs(const std::string& study, bool quick,
                                           const std::vector<Override>& sets, int& status) {
  std::vector<std::string> latencies;
  std::string name;
  const bool latency_set =
      std::any_of(sets.begin(), sets.end(), [](const Override& o) { return o.key == "network.latency"; });
  if (auto file = validation_file(study); file && !latency_set) {
    auto plain = load_scenario(*file, sets);
    if (plain.ok() && plain->validate) {
      latencies = plain->validate->latencies;
      name = plain->name;
    }
  }
  std::vector<StudyValidation> runs;
  auto run = [&](const std::string& label, const std::vector<Override>& overrides) {
    StudyOutcome outcome = validate_study(study, quick, overrides);
    status = std::max(status, outcome.status);
    runs.push_back({label, std::move(outcome.report), outcome.problem});
    return outcome.status != kExitBadInput && !is_interrupted_exit(outcome.status);
  };
  if (latencies.empty()) {
    run(study, sets);
    return runs;
  }
  for (const auto& latency : latencies) {
    std::vector<Override> overrides = sets;
    overrides.push_back({"network.latency", "\"" + latency + "\""});
    overrides.push_back({"scenario.name", "\"" + name + "-" + latency_label(latency) + "\""});
    if (!run(study + " at " + latency_label(latency), overrides)) break;
  }
  return runs;
}

}  // namespace

int cmd_validate(const std::vector<std::string>& studies, bool quick, const std::vector<std::string>& sets,
                 const std::string& out) {
  std::vector<Override> overrides;
  for (const auto& text : sets) {
    auto o = parse_override(text);
    if (!o.ok()) return fail_input(o.status().message());
    overrides.push_back(*o);
  }
  std::vector<std::string> chosen = studies;
  if (chosen.empty()) {
    for (const Study* study : all_studies()) {
      if (validation_file(study->name)) chosen.push_back(study->name);
    }
  }
  for (const auto& name : chosen) {
    auto study = study_named(name);
    if (!study.ok()) return fail_input(study.status().message());
  }
  if (!out.empty()) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return fail_input(out + ": cannot create the output folder: " + ec.message());
  }
  int status = 0;
  std::vector<StudyValidation> summary;
  for (const auto& name : chosen) {
    int study_status = 0;
    for (auto& run : validate_runs(name, quick, overrides, study_status)) {
      if (run.report) {
        std::cout << validation_markdown(*run.report) << "\n";
        std::cout.flush();
        if (!out.empty()) {
          fs::path stem = fs::path(out) / run.report->input.scenario;
          for (auto [suffix, text] : {std::pair{".validate.csv", validation_csv(*run.report)},
                                      std::pair{".validate.md", validation_markdown(*run.report)}}) {
            auto written = write_file(stem.string() + suffix, text);
            if (!written.ok()) return fail_input(written.message());
          }
        }
      }
      summary.push_back(std::move(run));
    }
    if (study_status == kExitBadInput || is_interrupted_exit(study_status)) return study_status;
    status = std::max(status, study_status);
  }
  if (summary.size() > 1) {
    std::string text = validation_summary(summary);
    std::cout << text;
    if (!out.empty()) {
      const Provenance& run = current_provenance();
      const std::string record =
          fmt::format("\n- ran {} on {} at commit {}{}\n- `{}`\n", run.date, run.host, run.commit,
                      run.dirty ? " (with uncommitted changes)" : "", run.command);
      auto written = write_file((fs::path(out) / "validate-summary.md").string(), text + record);
      if (!written.ok()) return fail_input(written.message());
    }
  }
  return status;
}

}  // namespace perflab
