// The perflab command line: the subcommands, their flags and help, wired to the commands (commands.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <CLI/CLI.hpp>

#include "sim/commands.h"
#include "sim/provenance.h"
#include "sim/results_site.h"
#include "sim/value_format.h"

namespace perflab {
namespace {

// --jobs and --seeds: a whole number >= 1, with the error every other bad input gets.
const CLI::Validator kAtLeastOne(
    [](const std::string& text) -> std::string {
      char* end = nullptr;
      long value = std::strtol(text.c_str(), &end, 10);
      if (!text.empty() && end == text.c_str() + text.size() && value >= 1) return "";
      return "\"" + text + "\" is not valid, expected an integer >= 1";
    },
    "INTEGER>=1");

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
  describe->add_option("STUDY", describe_name, "Study name")->required();

  RunFlags flags;
  auto* run = app.add_subcommand("run", "Run a scenario: every grid point x seed, each in its own process");
  run->add_option("SCENARIO", flags.scenario, "Scenario file (.toml)")->required();
  run->add_option("--set", flags.sets,
                  "Override any key with a TOML value: --set params.prune_threshold=2, "
                  "--set 'sweep.prefetch_depth=[0,1,500]', --set 'network.latency=\"constant(50ms)\"'")
      ->allow_extra_args(false);
  run->add_option("--seeds", flags.seeds, "Replications per grid point (overrides [scenario] seeds)")
      ->check(kAtLeastOne);
  run->add_option("--jobs", flags.jobs, "Runs in parallel (default: cores for sim, 1 for micro)")
      ->check(kAtLeastOne);
  run->add_option("--out", flags.out, "Write DIR/<name>.csv, .summary.csv and .md");
  run->add_option("--format", flags.format, "Summary printed on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  run->add_option("--point-timeout", flags.point_timeout,
                  "Wall limit per run, e.g. 30s; a run over it fails");
  run->add_flag("--resume", flags.resume, "Continue an interrupted --out run without redoing finished rows");
  run->add_option("--timeline", flags.timeline, "Write a Chrome trace (Perfetto) of a single-point run");
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
  merge->add_option("--out", merge_out, "Write OUT/<name>.csv, .summary.csv and .md")->required();
  merge->add_option("--format", merge_format, "Summary printed on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));

  std::vector<std::string> studies;
  int study_jobs = 0;
  bool full = false;
  auto* reproduce = app.add_subcommand(
      "reproduce",
      "Run the headline scenarios, write results/<study>/ and results/README.md, print the tables and the "
      "time each scenario took");
  reproduce->add_option("STUDY", studies, "Only these studies (default: all)");
  reproduce->add_option("--jobs", study_jobs, "Runs in parallel (default: cores)")->check(kAtLeastOne);
  bool readme_only = false;
  reproduce->add_flag(
      "--readme-only", readme_only,
      "Run nothing: rebuild results/README.md from the results on disk (scripts/reproduce calls "
      "it after drawing the plots, so new pictures are shown)");
  reproduce->add_flag("--full", full,
                      "Also the slow headline scenarios (minutes of real CPU: calibrations, the largest "
                      "quadratic cases)");

  bool quick = false;
  bool update = false;
  std::vector<std::string> tolerances;
  auto* check = app.add_subcommand(
      "check",
      "The regression gate: rerun the headline scenarios and pair them seed by seed with the committed "
      "results/ (exact counts equal, simulated times within a relative 1e-9, the studies' claims on "
      "micro-engine timings); exit 1 with a table of what moved");
  check->add_option("STUDY", studies, "Only these studies (default: all)");
  check->add_option("--jobs", study_jobs, "Runs in parallel (default: cores)")->check(kAtLeastOne);
  check->add_flag("--quick", quick,
                  "Each scenario's [quick] variant: fewer seeds and sizes (about a minute)");
  check->add_flag("--full", full, "Also the slow headline scenarios");
  check
      ->add_option("--tolerance", tolerances,
                   "Relative tolerance of simulated times, for every metric (--tolerance 1e-6) or one "
                   "(--tolerance duration_s=1e-6); default 1e-9 or the scenario's [check] table")
      ->allow_extra_args(false);
  check->add_flag("--update", update,
                  "Rewrite the committed results instead (what `reproduce` does), for a deliberate change: "
                  "review the diff and commit it");

  std::vector<std::string> compare_dirs;
  std::string compare_format = "md";
  bool compare_all = false;
  auto* compare = app.add_subcommand(
      "compare",
      "Compare two result folders of the same scenarios (two --out folders, or main's results/ and a "
      "branch's) point by point and seed by seed, by check's rules: A, B, change, verdict; exit 1 when "
      "anything moved beyond its tolerance");
  compare->add_option("A_B", compare_dirs, "Two folders: A, the baseline, then B, compared with it")
      ->required()
      ->expected(2);
  compare->add_option("--format", compare_format, "md (default), csv or json")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  compare->add_option("--tolerance", tolerances, "As for check: 1e-6, or METRIC=1e-6")
      ->allow_extra_args(false);
  compare->add_flag("--all", compare_all, "List unchanged point × metric cells too (markdown)");

  CaptureFlags capture_flags;
  auto* capture = app.add_subcommand(
      "capture",
      "Record your own program's workload for a study and write a scenario that replays it "
      "(docs/your-own-workload.md)");
  capture->require_subcommand(1);
  auto* capture_prefetch = capture->add_subcommand(
      "prefetch",
      "Run a JVM program under -Xshare:off -Xlog:class+load=info: write OUT/NAME.classload.log, "
      "NAME.classpath (the JARs it ran with) and NAME.toml (jgit-clone.toml's depth sweep on them)");
  auto* capture_pipe = capture->add_subcommand(
      "pipe",
      "Run a command through the real epoll pump with its writes on stdout recorded: write "
      "OUT/NAME.SIZE.writes.csv and NAME.toml (the writes through every pump and pipe size)");
  for (auto* sub : {capture_prefetch, capture_pipe}) {
    sub->add_option("--out", capture_flags.out,
                    "Folder to write to (made if missing; nothing else is written)")
        ->required();
    sub->add_option("--name", capture_flags.name, "Stem of the files written (default: from the command)");
    sub->add_option("COMMAND", capture_flags.command, "The command line, after --")->required();
  }
  capture_pipe
      ->add_option("--pipe-size", capture_flags.pipe_sizes,
                   "Pipe sizes asked with F_SETPIPE_SZ, a trace each (default 64KiB)")
      ->allow_extra_args(false);
  capture_pipe->add_option("--runs", capture_flags.runs, "Runs per pipe size; the median run's trace is kept")
      ->check(kAtLeastOne);
  capture_pipe->add_option("--gap", capture_flags.gap, "Pause after each run, e.g. 2s");
  capture_pipe->add_option("--stdin", capture_flags.stdin_file,
                           "File given to the command on stdin (<= 64 KiB)");

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
  if (*reproduce && readme_only) {
    auto readme = write_results_readme(results_dir());
    if (!readme.ok()) return fail_input(readme.message());
    return 0;
  }
  if (*reproduce) return cmd_reproduce(studies, study_jobs, full);
  if (*check && update) return cmd_reproduce(studies, study_jobs, full);
  if (*check) {
    int status = cmd_check(studies, study_jobs, quick, full, tolerances);
    if (studies.empty()) {  // the whole gate: its verdict is the one the results site shows
      auto record = write_check_record(results_dir(), status, quick, full);
      if (!record.ok()) std::fprintf(stderr, "perflab: warning: %s\n", record.message().c_str());
    }
    return status;
  }
  if (*compare) return cmd_compare(compare_dirs[0], compare_dirs[1], tolerances, compare_format, compare_all);
  if (*merge) return cmd_merge(merge_dirs, merge_out, merge_format);
  if (*capture_prefetch) return cmd_capture_prefetch(capture_flags);
  if (*capture_pipe) return cmd_capture_pipe(capture_flags);
  if (*rows) return cmd_rows(flags, rows_tasks, rows_origin, rows_dir);
  return cmd_run(flags);
}

}  // namespace perflab
