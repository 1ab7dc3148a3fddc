// `perflab validate` checks what it can without running before its first run (exit 2 for a configuration
// error, in seconds), and a ratio the user's own grid cannot form is reported "not judged" while the rest of
// the table is still written. Runs the share study's real engine on a 256 KiB file: seconds.
#include <gtest/gtest.h>

#include <regex>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

// A scenarios folder holding share's validate.toml alone (its `also` line dropped) with `from` replaced by
// `to` (PERFLAB_SCENARIOS).
fs::path share_validation_with(const TempDir& dir, const std::string& from, const std::string& to) {
  std::string text = std::regex_replace(read_file(fs::path(PERFLAB_SCENARIOS) / "share" / "validate.toml"),
                                        std::regex("\nalso = [^\n]*"), "");
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  fs::create_directories(dir / "scenarios" / "share");
  write_file(dir / "scenarios" / "share" / "validate.toml", text);
  return dir / "scenarios";
}

// share's committed calibration (the constants validate sets on the sim side), copied into `results` as
// the calibration of the scenario named `scenario`.
void copy_share_calibration(const fs::path& results, const std::string& scenario) {
  fs::create_directories(results / "share");
  for (const char* suffix : {".calibration.toml", ".calibration.csv"}) {  // the constants, their residuals
    write_file(results / "share" / (scenario + suffix),
               read_file(fs::path(PERFLAB_SCENARIOS).parent_path() / "results" / "share" /
                         (std::string("share-calibrate-real") + suffix)));
  }
}

const std::string kSmall = " --set params.file_size='\"256KiB\"' --set network.latency='\"constant(0.5ms)\"'";

// Before the first run validate states how long the committed runs of the same scenarios took (their
// reports' wall time; results/validate-quick/ for --quick), here from a PERFLAB_RESULTS of three reports.
TEST(ValidateInputs, TheStatedTimeIsTheCommittedRunsWallTime) {
  TempDir dir;
  fs::create_directories(dir / "results" / "validate-quick");
  for (const char* suffix : {"0.5ms", "2ms", "5ms", "headline"}) {
    write_file(
        dir / "results" / "validate-quick" / (std::string("share-validate-") + suffix + ".validate.md"),
        "- wall time 7 s, load average at the end 0.1 on 2 cores\n");
  }
  copy_share_calibration(dir / "results", "share-calibrate-real");
  auto r = run_perflab("validate share --quick --set params.file_size='\"256KiB\"'",
                       {{"PERFLAB_RESULTS", (dir / "results").string()}});
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  // share calibrates in its own window (validate.toml's calibrate_in_window): that is stated too, from the
  // committed calibration's time a window
  const auto stated = r.err.find(
      "validate: 4 run(s); the committed runs of the same scenarios took 28 s (results/validate-quick/); "
      "plus share's calibration in this window, before its first run (a window of the committed one took ");
  EXPECT_LT(stated, r.err.find("real passes")) << r.err;
  EXPECT_LT(stated, r.err.find(" s); --set changes the grid, so this one may take more or less\n")) << r.err;
}

TEST(ValidateInputs, AFurtherFileThatIsNotBesideTheValidationIsRefused) {
  TempDir dir;
  auto scenarios =
      share_validation_with(dir, "[validate]\n", "[validate]\nalso = [\"validate-nowhere.toml\"]\n");
  auto r = run_perflab("validate share", {{"PERFLAB_SCENARIOS", scenarios.string()}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("[validate] also names \"validate-nowhere.toml\", which is not a .toml file beside "
                       "validate.toml"),
            std::string::npos)
      << r.err;
}

TEST(ValidateInputs, SettingTheEngineIsRefused) {
  auto r = run_perflab("validate share --set scenario.engine='\"sim\"'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--set scenario.engine: validate runs each point in both engines itself"),
            std::string::npos)
      << r.err;
}

TEST(ValidateInputs, AnOutputFolderThatCannotBeWrittenIsRefusedBeforeRunning) {
  TempDir dir;
  write_file(dir / "file", "");
  auto r = run_perflab("validate share --out " + (dir / "file" / "sub").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/file is not a folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("real passes"), std::string::npos) << "ran before refusing: " << r.err;
}

TEST(ValidateInputs, ARefusedValidationLeavesNoOutputFolderBehind) {
  TempDir dir;
  auto r = run_perflab("validate nosuchstudy --quick --out " + (dir / "new").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(fs::exists(dir / "new")) << r.err;
}

TEST(ValidateInputs, ARatioNamingNoColumnIsAConfigurationError) {
  TempDir dir;
  auto scenarios = share_validation_with(dir, "[\"loop=eager\", \"loop=coalesced\"]",
                                         "[\"lop=eager\", \"loop=coalesced\"]");
  auto r = run_perflab("validate share" + kSmall, {{"PERFLAB_SCENARIOS", scenarios.string()}});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("ratio \"lop=eager\": expected COLUMN=VALUE with COLUMN one of case"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("real passes"), std::string::npos) << "ran before refusing: " << r.err;
}

// The validation grid itself named as the calibration scenario: at its own 2 ms (the second of its
// [validate] latencies) its first point lies inside, and that is refused before the 0.5 ms run starts.
TEST(ValidateInputs, ACalibrationPointInsideTheGridIsRefused) {
  TempDir dir;
  const fs::path own = dir / "scenarios" / "share" / "validate.toml";
  auto scenarios =
      share_validation_with(dir, "calibration_scenario = \"scenarios/share/calibrate-real.toml\"",
                            "calibration_scenario = \"" + own.string() + "\"");
  copy_share_calibration(dir / "results", "share-validate");  // the constants of the runs before 2 ms
  auto r = run_perflab("validate share", {{"PERFLAB_SCENARIOS", scenarios.string()},
                                          {"PERFLAB_RESULTS", (dir / "results").string()}});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.find("real passes"), std::string::npos) << "ran before refusing: " << r.err;
  EXPECT_TRUE(
      std::regex_search(r.err, std::regex("calibration point 1 of .*validate.toml \\(case=3-of-10, .*\\) "
                                          "lies inside the validation grid")))
      << r.err;
}

// A grid narrowed by --set to loops that form neither ratio: both ratios are said before running and
// reported "not judged"; the table and the other criteria are still written.
TEST(ValidateInputs, ANarrowedGridGetsItsTable) {
  TempDir dir;
  auto r = run_perflab("validate share --quick" + kSmall +
                       " --set 'sweep.loop=[\"eager\", \"readv\"]' --out " + (dir / "v").string());
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;  // the verdict is not what is tested here
  EXPECT_LT(
      r.err.find("ratio loop=eager / loop=coalesced will be reported not judged: loop=coalesced is not a "
                 "point of this grid (loop: eager, readv)"),
      r.err.find("real passes"))
      << r.err;
  // Before running, the time it may take: none is committed for share-validate at a --set latency (the
  // headline's run, validate-headline.toml, has one).
  EXPECT_LT(r.err.find("validate: 2 run(s); the committed runs of the same scenarios took"),
            r.err.find("real passes"))
      << r.err;
  EXPECT_NE(r.err.find("no committed run of share to state its time from"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--set changes the grid, so this one may take more or less"), std::string::npos)
      << r.err;
  const std::string report = read_file(dir / "v" / "share-validate.validate.md");
  EXPECT_NE(
      report.find("| ratio loop=eager / loop=coalesced: abs(real/sim - 1) |  | – | <= 0.05 | not judged |"),
      std::string::npos)
      << report;
  EXPECT_NE(report.find("| mean abs ln(real/sim) | every point (4) |"), std::string::npos) << report;
  EXPECT_NE(report.find("real-time priority (SCHED_FIFO): obtained in"), std::string::npos) << report;
  EXPECT_NE(report.find("Verdict: "), std::string::npos) << report;
}

// A user's own scenario, no [validate] table: judged on duration_s at the default criteria, with the study's
// own committed calibration on the sim side. Two prefetch points with delays of at most 1 ms: seconds.
TEST(ValidateInputs, YourOwnScenarioIsJudgedAtTheDefaultCriteria) {
  TempDir dir;
  write_file(dir / "mine.toml",
             "[scenario]\nname = \"mine\"\nstudy = \"prefetch\"\nseeds = 1\n[network]\nlatency = "
             "\"constant(0.2ms)\"\nbandwidth = \"100MBps\"\n[params]\nrpc_delay = \"uniform(0ms, 1ms)\"\n"
             "trace = \"" PERFLAB_SCENARIOS
             "/prefetch/data/jgit-clone.classload.log\"\n"
             "classpath = [\"" PERFLAB_SCENARIOS
             "/prefetch/data/jgit-clone.classpath\"]\n"
             "[sweep]\nprefetch_depth = [1, 500]\n");
  auto r = run_perflab("validate " + (dir / "mine.toml").string());
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  EXPECT_NE(r.out.find("### mine: sim against real"), std::string::npos) << r.out;
  // Without --out nothing is written, and that is said before the first run.
  EXPECT_LT(r.err.find("validate: the reports go to stdout only; --out DIR also writes"),
            r.err.find("real passes"))
      << r.err;
  EXPECT_NE(r.out.find("| mean abs ln(real/sim) | every point (2) |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| <= 0.05 |"), std::string::npos) << r.out;
  // prefetch's own calibration, from its committed file (whatever value `perflab calibrate` last wrote)
  EXPECT_NE(r.out.find("calibration (sim only): exchange_overhead = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("results/prefetch/prefetch-calibrate.calibration.toml"), std::string::npos) << r.out;
  // and the sim twin at this machine's wake-up, probed at each point before the real passes
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex("wake-up \\(sim only; this machine's, measured before the real "
                                          "passes, not fitted\\): [0-9]+–[0-9]+ µs over 2 points, the "
                                          "median lateness of [0-9]+ deadline sleeps of 200 us")))
      << r.out;
}

TEST(ValidateInputs, AScenarioOfAStudyWithoutARealEngineIsRefused) {
  auto r = run_perflab("validate " + std::string(PERFLAB_SCENARIOS) + "/pingpong/wan.toml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("has no real engine, so there is nothing to validate its sim against"),
            std::string::npos)
      << r.err;
}

// A parameter only one engine reads goes to that engine's side alone: the dispatcher's sched_fifo (real)
// set on a validation is not refused by its sim side, and the report says what the real runs obtained.
TEST(ValidateInputs, AParameterOneEngineReadsGoesToThatEngineAlone) {
  TempDir dir;
  write_file(
      dir / "tiny.toml",
      "[scenario]\nname = \"tiny\"\nstudy = \"dispatcher\"\nengine = \"real\"\nseeds = 1\n"
      "[network]\nlatency = \"constant(0.5ms)\"\nbandwidth = \"1GBps\"\n"
      "[params]\ncalls = 200\narrival_rate = 4000\nthreads = 16\nhosts = 4\nmax_requests_per_host = 4\n"
      "server_time = \"constant(5ms)\"\n"
      "[sweep]\nmax_requests = [8]\nstrategy = [\"counter\", \"indexed\"]\n"
      "[validate]\nmetrics = [\"ops_under_lock\"]\nrepetitions = 5\n");
  auto r = run_perflab("validate " + (dir / "tiny.toml").string() + " --set params.sched_fifo=true");
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  EXPECT_NE(r.out.find("SCHED_FIFO"), std::string::npos) << r.out;
}
}  // namespace
}  // namespace perflab::testing
