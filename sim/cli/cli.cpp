// The perflab command line: the subcommands, their flags and help, wired to the commands (commands.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <CLI/CLI.hpp>

#include "sim/cli/capture.h"
#include "sim/cli/commands.h"
#include "sim/cli/flag_checks.h"
#include "sim/gate/check_record.h"
#include "sim/gate/provenance.h"
#include "sim/report/python_renderer.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace {

const CLI::Validator kAtLeastOne = whole_number_at_least(1);

}  // namespace

int cli_main(int argc, char** argv) {
  set_command_line(argc, argv);
  CLI::App app{
      "perflab: runs real implementations of famous performance fixes against simulated networks with\n"
      "injected random latency (and on the real CPU), sweeps their knobs and prints the tables.\n"
      "Scenarios are TOML files (see `perflab list`, `perflab describe STUDY`)."};
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "List the shipped scenarios, one line each");
  std::string describe_name;
  auto* describe =
      app.add_subcommand("describe", "Show a study's parameters (type, default, meaning) and metrics");
  describe->add_option("NAME", describe_name, "A study, or a scenario (its study and its cases)")->required();

  RunFlags flags;
  auto* run = app.add_subcommand("run", "Run a scenario: every grid point x seed, each in its own process");
  run->add_option("SCENARIO", flags.scenario,
                  "Scenario file (.toml), or a shipped scenario's name as `perflab list` prints it")
      ->required();
  run->add_option("--set", flags.sets,
                  "Override any key with a TOML value: --set params.prune_threshold=2, "
                  "--set 'sweep.prefetch_depth=[0,1,500]', --set 'network.latency=\"constant(50ms)\"'")
      ->allow_extra_args(false);
  run->add_option(
         "--case", flags.cases,
         "Run only this [[case]] of the scenario (repeatable; `perflab describe SCENARIO` lists them)")
      ->allow_extra_args(false);
  run->add_option("--seeds", flags.seeds, "Replications per grid point (overrides [scenario] seeds)")
      ->check(kAtLeastOne);
  const std::string jobs_help =
      "Runs in parallel (default: cores for sim, 1 for micro); above the cores it "
      "warns, and at most " +
      std::to_string(kJobsPerCore) + " per core run at once";
  run->add_option("--jobs", flags.jobs, jobs_help)->check(kAtLeastOne);
  run->add_option("--out", flags.out, "Write DIR/<name>.csv, .summary.csv and .md")->check(non_empty_path());
  run->add_option("--format", flags.format, "Summary printed on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  run->add_option("--point-timeout", flags.point_timeout,
                  "Wall limit per run, e.g. 30s; a run over it fails");
  run->add_flag("--resume", flags.resume, "Continue an interrupted --out run without redoing finished rows");
  run->add_option("--timeline", flags.timeline,
                  "Write a Chrome trace (Perfetto) of a single-point run (every sim engine; the real ones of "
                  "prefetch and share)")
      ->check(non_empty_path());
  run->add_option("--scheduler", flags.scheduler,
                  "Run on the Dask cluster whose scheduler is at this address (tcp://host:8786), as "
                  "perflab.run(..., client=) does; the same CSV as a local run");
  run->add_option("--shard", flags.shard,
                  "Run only shard I of N (every N-th run, e.g. 3/100, for array jobs); needs --out, and "
                  "`perflab merge` joins the shards' folders");

  std::string rows_tasks;
  std::string rows_origin = "<stdin>";
  std::string rows_dir = ".";
  auto* rows = app.add_subcommand(
      "rows",
      "(For the Python layer) run some runs of a scenario, print each run's row on stdout as it ends");
  rows->group("");  // not listed in --help: an interface between perflab's own parts
  rows->add_option("SCENARIO", flags.scenario, "Scenario file, or - for TOML text on stdin")->required();
  rows->add_option("--set", flags.sets, "Overrides, as for run")->allow_extra_args(false);
  rows->add_option("--tasks", rows_tasks, "Run indices (point x seeds + replication), e.g. 0-99,120");
  rows->add_option("--jobs", flags.jobs, "Runs in parallel")->check(kAtLeastOne);
  rows->add_option("--origin", rows_origin, "The name of stdin's scenario in error messages");
  rows->add_option("--dir", rows_dir, "Where stdin's scenario's relative paths start");

  std::vector<std::string> merge_dirs;
  std::string merge_out;
  std::string merge_format = "md";
  auto* merge = app.add_subcommand(
      "merge",
      "Join the --out folders of `perflab run … --shard I/N` into the files one unsharded run writes");
  merge->add_option("DIR", merge_dirs, "Shard output folders (each holds a <name>.shard)")->required();
  merge->add_option("--out", merge_out, "Write OUT/<name>.csv, .summary.csv and .md")
      ->required()
      ->check(non_empty_path());
  merge->add_option("--format", merge_format, "Summary printed on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));

  std::vector<std::string> studies;
  int study_jobs = 0;
  bool full = false;
  ReproduceFlags repro;
  auto* reproduce = app.add_subcommand(
      "reproduce",
      "Run the headline scenarios into out/reproduce/ (or --out DIR): each study's results, README.md, the "
      "plots and the site (index.html); print the tables and the time each scenario took. --update "
      "rewrites the committed results/ instead");
  reproduce->add_option("STUDY", repro.studies, "Only these studies (default: all)");
  reproduce->add_option("--jobs", repro.jobs, jobs_help)->check(kAtLeastOne);
  reproduce
      ->add_option("--out", repro.out, "The reproduction's folder (default: out/reproduce/ of the checkout)")
      ->check(non_empty_path());
  reproduce->add_flag(
      "--update", repro.update,
      "The maintainer's step: run into out/reproduce/, print what moved against the committed "
      "results/, then rewrite them (review the diff and commit it)");
  reproduce->add_flag(
      "--readme-only", repro.readme_only,
      "Run nothing: redraw the plots, README.md and the site of the folder (out/reproduce/, --out, or "
      "results/ with --update) from the results on disk");
  reproduce->add_flag("--full", repro.full,
                      "Also the slow headline scenarios (minutes of real CPU: calibrations, the largest "
                      "quadratic cases)");
  reproduce->add_option("--tolerance", repro.tolerances, "--update's comparison, as for check")
      ->allow_extra_args(false);

  bool quick = false;
  bool update = false;
  std::vector<std::string> tolerances;
  auto* check = app.add_subcommand(
      "check",
      "The regression gate: rerun the headline scenarios and pair them seed by seed with the committed "
      "results/ (exact counts equal, simulated times within a relative 1e-9, the studies' claims on "
      "micro-engine timings); exit 1 with a table of what moved");
  check->add_option("STUDY", studies,
                    "Only these studies, or these headline scenarios by name (default: all studies)");
  check->add_option("--jobs", study_jobs, jobs_help)->check(kAtLeastOne);
  check->add_flag("--quick", quick,
                  "Each scenario's [quick] variant: fewer seeds and sizes (about a minute)");
  check->add_flag("--full", full, "Also the slow headline scenarios");
  check
      ->add_option("--tolerance", tolerances,
                   "Relative tolerance of simulated times, for every metric (--tolerance 1e-6) or one "
                   "(--tolerance duration_s=1e-6); default 1e-9 or the scenario's [check] table")
      ->allow_extra_args(false);
  check->add_flag("--update", update,
                  "Rewrite the committed results instead (`reproduce --update`), for a deliberate change: "
                  "review the diff and commit it");
  bool record = false;
  check->add_flag("--record", record,
                  "Record the verdict of the whole gate (no STUDY) in results/check.txt and rebuild the "
                  "site, whose index shows it (the maintainer's step; a plain check writes nothing)");

  std::vector<std::string> compare_dirs;
  std::string compare_format = "md";
  bool compare_all = false;
  auto* compare = app.add_subcommand(
      "compare",
      "Compare two result folders of the same scenarios (two --out folders, or main's results/ and a "
      "branch's) point by point and seed by seed, by check's rules: first which rows both hold, then A, B, "
      "change, verdict; exit 1 when a value both hold moved beyond its tolerance. A or B may be a scenario's "
      "name (its committed results)");
  compare
      ->add_option("A_B", compare_dirs,
                   "Two folders (or scenario names): A, the baseline, then B, compared with it")
      ->required()
      ->expected(2);
  compare->add_option("--format", compare_format, "md (default), csv or json")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  compare->add_option("--tolerance", tolerances, "As for check: 1e-6, or METRIC=1e-6")
      ->allow_extra_args(false);
  compare->add_flag("--all", compare_all, "List unchanged point × metric cells too (markdown)");
  bool require_all = false;
  compare->add_flag("--require-all", require_all,
                    "Fail (exit 1) when a row (point × seed) of one folder is not in the other; by default "
                    "the rows both hold are compared and the coverage is reported");

  std::vector<std::string> validate_sets;
  std::string validate_out;
  auto* validate = app.add_subcommand(
      "validate",
      "Sim against real: run each study's scenarios/<study>/validate.toml (then the files its [validate] "
      "also lists; a held-out grid is run by its file name) in the sim and the real engine "
      "with the same seeds (R spaced real repetitions per point), print per point sim, real median with "
      "its 95% interval and ln(real/sim), then every criterion (errors, headline ratios per group, the rank "
      "rule of docs/validation.md) with its bound and verdict; checks its inputs before the first run (exit "
      "2); exit 1 when a judged criterion fails");
  validate->add_option("STUDY", studies,
                       "Only these studies (default: every study with a validate.toml), or your own scenario "
                       "files (FILE.toml; without a [validate] table: duration_s at the default criteria)");
  validate->add_flag(
      "--quick", quick,
      "The [quick] variant of each validation scenario: a smaller grid, every study in about 3 min");
  validate->add_option("--set", validate_sets, "Overrides, as for run")->allow_extra_args(false);
  validate->add_option("--out", validate_out, "Write DIR/<scenario>.validate.csv and .validate.md")
      ->check(non_empty_path());

  std::vector<std::string> calibrate_studies;
  std::string calibrate_out;
  auto* calibrate = app.add_subcommand(
      "calibrate",
      "Fit each study's calibration constants on its calibration scenario (validate.toml's "
      "calibration_scenario, outside the validation grid): run it, fit by the study's named method, print "
      "the constants with every point's residual and how far they moved from the committed ones, and write "
      "results/<study>/<scenario>.calibration.toml and .csv, which validate reads");
  calibrate->add_option("STUDY", calibrate_studies, "Only these studies (default: every study with a fit)");
  calibrate->add_option("--out", calibrate_out, "Write DIR/<study>/… instead of results/")
      ->check(non_empty_path());
  int calibrate_windows = 1, calibrate_gap_s = 300;
  calibrate
      ->add_option("--windows", calibrate_windows,
                   "Run every study's calibration runs in N windows, --gap apart, and fit once on all of "
                   "them: constants and residuals that span the machine's states, not one window's")
      ->check(kAtLeastOne);
  calibrate->add_option("--gap", calibrate_gap_s, "Seconds between windows (default 300)")
      ->check(whole_number_at_least(0));

  std::vector<std::string> history_studies;
  auto* history = app.add_subcommand(
      "history",
      "When and why did a headline figure move? Read each study's headline figure (the front page's ratio) "
      "at every commit that changed the summary it is computed from (git log -- results/, in the repository "
      "of the current folder or --repo), and write results/history.csv and results/history.html (every "
      "study; a history of some studies only with --out): the figure per commit with its subject and date, a "
      "simulated figure's every move marked as a step, a micro-engine figure's change points (E-divisive "
      "means with Welch's t-test, p <= 0.001). Needs a git checkout; runs nothing");
  history->add_option("STUDY", history_studies, "Only these studies (default: every study with a headline)");
  std::string history_repo, history_out;
  history->add_option("--repo", history_repo,
                      "The git checkout to read (default: the repository of the current folder)");
  history
      ->add_option("--out", history_out,
                   "Write history.csv and history.html here (default: the checkout's results/, and only "
                   "when every study is asked)")
      ->check(non_empty_path());

  CaptureFlags capture_flags;
  auto* capture = app.add_subcommand(
      "capture",
      "Record your own program's workload for a study and write a scenario that replays it "
      "(docs/your-own-workload.md)");
  capture->require_subcommand(1);
  // Each study that can record a workload registers its subcommand (sim/cli/capture.h).
  std::vector<std::pair<CLI::App*, std::function<int(const CaptureFlags&)>>> captures;
  for (const CaptureCommand& command : capture_commands()) {
    auto* sub = capture->add_subcommand(command.study, command.help);
    sub->add_option("--out", capture_flags.out,
                    "New or empty folder to write to (made if missing; nothing else is written)")
        ->required()
        ->check(non_empty_path());
    sub->add_option("--name", capture_flags.name,
                    "Stem of the files written, a plain file name (default: from the command)");
    sub->add_flag("--force", capture_flags.force,
                  "Write into a --out that is not empty, replacing files of the same name");
    captures.emplace_back(sub, command.add_options(*sub));
    sub->add_option("COMMAND", capture_flags.command, "The command line, after --")->required();
  }

  std::vector<std::string> commands;  // those --help lists (rows is perflab's own)
  for (const auto* sub : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
    commands.push_back(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' && argv[1] != std::string("rows") &&
      std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
    return fail_input(std::string("unknown command \"") + argv[1] + "\", expected one of " +
                      join(commands, ", ") + " (see perflab --help)");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "perflab: error: %s\nRun with --help for usage.\n", e.what());
    return kExitBadInput;
  }

  if (*list) return cmd_list();
  if (*describe) return cmd_describe(describe_name);
  if (*reproduce) {
    if (repro.update && !repro.out.empty())
      return fail_input("--update rewrites results/ and --out names another folder: give one of them");
    return cmd_reproduce(repro);
  }
  if (*check && update) {
    if (quick) {
      return fail_input(
          "--update rewrites the committed results, which are whole runs; --quick runs each "
          "scenario's smaller [quick] variant, which they cannot be: give one of them");
    }
    ReproduceFlags flags;
    flags.studies = studies;
    flags.jobs = study_jobs;
    flags.full = full;
    flags.update = true;
    flags.tolerances = tolerances;
    return cmd_reproduce(flags);
  }
  if (*check) {
    if (record && !studies.empty())
      return fail_input(
          "--record keeps the verdict of the whole gate, which the site shows: run it without "
          "STUDY");
    int status = cmd_check(studies, study_jobs, quick, full, tolerances);
    if (record) {
      Status written = write_check_record(results_dir(), status, quick, full);
      if (written.ok()) written = render_results(results_dir());
      if (!written.ok()) std::fprintf(stderr, "perflab: warning: %s\n", written.message().c_str());
    }
    return status;
  }
  if (*history) return cmd_history(history_studies, history_repo, history_out);
  if (*validate) return cmd_validate(studies, quick, validate_sets, validate_out);
  if (*calibrate) return cmd_calibrate(calibrate_studies, calibrate_out, calibrate_windows, calibrate_gap_s);
  if (*compare)
    return cmd_compare(compare_dirs[0], compare_dirs[1], {tolerances, require_all, ""}, compare_format,
                       compare_all);
  if (*merge) return cmd_merge(merge_dirs, merge_out, merge_format);
  for (const auto& [sub, run_capture] : captures) {
    if (*sub) return run_capture(capture_flags);
  }
  if (*rows) return cmd_rows(flags, rows_tasks, rows_origin, rows_dir);
  return cmd_run(flags);
}

}  // namespace perflab
