// The prefetch study's real engine through the perflab binary, as a user runs it: on a small grid it gives
// the sim's counts where the mechanism makes them independent of timing; a controller that dies makes a
// failed row with its reason; nothing it forked outlives a run, a timeout, a failure or Ctrl-C. Wall times
// are not compared here: that is what `perflab validate` measures.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/sim/cli_runner.h"
#include "tests/sim/no_orphans.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

// A prefetch scenario on the committed JGit trace: short delays, so a run takes a second or two.
std::string prefetch_scenario(const std::string& engine, const std::string& jar_cache,
                              const std::string& extra = "") {
  return "[scenario]\nname = \"s\"\nstudy = \"prefetch\"\nengine = \"" + engine +
         "\"\nseeds = 1\n"
         "[network]\nlatency = \"constant(0.2ms)\"\nbandwidth = \"100MBps\"\n"
         "[params]\nrpc_delay = \"uniform(0ms, 1ms)\"\njar_cache = \"" +
         jar_cache + "\"\ntrace = \"" PERFLAB_SCENARIOS "/prefetch/data/jgit-clone.classload.log\"\n" +
         "classpath = [\"" PERFLAB_SCENARIOS "/prefetch/data/jgit-clone.classpath\"]\n" +
         "[sweep]\nprefetch_depth = [0, 1, 3]\n" + extra;
}

std::vector<CsvRow> run_rows(const TempDir& dir, const std::string& engine, const std::string& jar_cache,
                             const std::map<std::string, std::string>& env = {}, int* status = nullptr) {
  write_file(dir / (engine + ".toml"), prefetch_scenario(engine, jar_cache));
  fs::path out = dir / engine;
  auto r = run_perflab("run " + (dir / (engine + ".toml")).string() + " --out " + out.string(), env);
  if (status != nullptr) {
    *status = r.status;
  } else {
    EXPECT_EQ(r.status, 0) << r.err;
  }
  return parse_csv(read_file(out / "s.csv"));
}

using RealEngine = AdoptsOrphans;

// Warm JAR cache: no downloads race the class loads, so every count is fixed by the trace and the prefetch.
TEST_F(RealEngine, WarmCacheGivesTheSimsCountsExactly) {
  TempDir dir;
  auto sim = run_rows(dir, "sim", "warm");
  auto real = run_rows(dir, "real", "warm");
  ASSERT_EQ(sim.size(), 3u);
  ASSERT_EQ(real.size(), 3u);
  for (size_t i = 0; i < sim.size(); ++i) {
    for (const char* metric :
         {"rpcs", "fetch3_calls", "classes_prefetched", "prefetch_hits", "bytes_prefetched",
          "server_classes_loaded", "jar_downloads", "extra_fetches"}) {
      EXPECT_EQ(real[i][metric], sim[i][metric]) << metric << " at depth " << sim[i]["prefetch_depth"];
    }
    EXPECT_GT(std::stod(real[i]["sleeps"]), 0);
  }
  EXPECT_EQ(sim[0]["rpcs"], "704");  // depth 0: one fetch3 per class of the trace
  EXPECT_TRUE(no_process_left());
}

// Cold JAR cache: whether a prefetched class's JAR is still downloading when the class is loaded depends on
// timing, and so do extra fetches and RPCs; which classes are asked for, sent and hit, and which JARs are
// needed, do not.
TEST_F(RealEngine, ColdCacheGivesTheSimsTimingIndependentCounts) {
  TempDir dir;
  auto sim = run_rows(dir, "sim", "cold");
  auto real = run_rows(dir, "real", "cold");
  ASSERT_EQ(sim.size(), real.size());
  for (size_t i = 0; i < sim.size(); ++i) {
    for (const char* metric :
         {"fetch3_calls", "classes_prefetched", "prefetch_hits", "server_classes_loaded", "jar_downloads"}) {
      EXPECT_EQ(real[i][metric], sim[i][metric]) << metric << " at depth " << sim[i]["prefetch_depth"];
    }
    EXPECT_EQ(std::stod(real[i]["rpcs"]),
              std::stod(real[i]["fetch3_calls"]) + std::stod(real[i]["extra_fetches"]));
  }
  EXPECT_TRUE(no_process_left());
}

TEST_F(RealEngine, AControllerThatDiesMidRunMakesAFailedRowWithItsReason) {
  TempDir dir;
  int status = 0;
  auto rows = run_rows(dir, "real", "warm", {{"PERFLAB_REAL_FAULT", "controller-dies-after=20"}}, &status);
  EXPECT_EQ(status, 1);
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) {
    EXPECT_NE(row.at("error").find("controller process killed by signal 9"), std::string::npos)
        << row.at("error");
  }
  EXPECT_TRUE(no_process_left());
}

TEST_F(RealEngine, ATimedOutRunLeavesNoProcessBehind) {
  TempDir dir;
  write_file(dir / "slow.toml", prefetch_scenario("real", "warm"));
  auto r = run_perflab("run " + (dir / "slow.toml").string() +
                       " --set 'params.rpc_delay=\"constant(50ms)\"' --set 'sweep.prefetch_depth=[0]' "
                       "--point-timeout 1s --out " +
                       (dir / "out").string());
  EXPECT_EQ(r.status, 1) << r.err;
  auto rows = parse_csv(read_file(dir / "out" / "s.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0].at("error").find("timed out"), std::string::npos) << rows[0].at("error");
  EXPECT_TRUE(no_process_left());
}

// Ctrl-C in a terminal signals the whole foreground process group (perflab, the run it forked, the agent
// and the controller process); `kill` and batch schedulers send SIGTERM to perflab alone, `timeout` to its
// group. Each way perflab exits as interrupted and leaves no process behind.
class RealEngineStopped : public AdoptsOrphans, public ::testing::WithParamInterface<StopSignal> {};

TEST_P(RealEngineStopped, LeavesNoProcessBehind) {
  TempDir dir;
  write_file(dir / "slow.toml", prefetch_scenario("real", "warm"));
  // 704 RPCs of 50 ms: the run lasts 35 s.
  expect_signal_leaves_no_process(
      PERFLAB_BINARY,
      {"run", (dir / "slow.toml").string(), "--set", "params.rpc_delay=\"constant(50ms)\"", "--set",
       "sweep.prefetch_depth=[0]", "--out", (dir / "out").string()},
      "perflab-control", GetParam().signal, GetParam().to, dir / "err");
}
INSTANTIATE_TEST_SUITE_P(Signals, RealEngineStopped, ::testing::ValuesIn(kStopSignals), stop_signal_name);

// validate runs the sim, then the real passes: stopped in a real pass, it leaves no process either.
class ValidateStopped : public AdoptsOrphans, public ::testing::WithParamInterface<StopSignal> {};

TEST_P(ValidateStopped, LeavesNoProcessBehind) {
  TempDir dir;
  expect_signal_leaves_no_process(
      PERFLAB_BINARY,
      {"validate", "share", "--quick", "--set", "network.latency=\"constant(50ms)\"", "--set",
       "params.segment_size=\"8KiB\"", "--out", (dir / "v").string()},
      "perflab-server-", GetParam().signal, GetParam().to, dir / "err");
}
INSTANTIATE_TEST_SUITE_P(Signals, ValidateStopped, ::testing::ValuesIn(kStopSignals), stop_signal_name);

// A summary written to --out says when, where, at which commit and by which command it ran: it is what a
// maintainer commits. share's [validate] latencies give it three rows; a 256 KiB file keeps it to seconds.
TEST(Validate, TheSummaryFileRecordsItsRun) {
  TempDir dir;
  auto r =
      run_perflab("validate share --quick --set params.file_size='\"256KiB\"' --out " + (dir / "v").string());
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;  // the verdict is not what is tested here
  const std::string summary = read_file(dir / "v" / "validate-summary.md");
  EXPECT_NE(summary.find("| share at 0.5ms |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\n- ran 20"), std::string::npos) << summary;
  EXPECT_NE(summary.find(" at commit "), std::string::npos) << summary;
  EXPECT_NE(summary.find("validate share --quick"), std::string::npos) << summary;
  // Each report states the machine's load before it began, not only at the end, which its own real runs make,
  // and when it started, so that a committed report can be told from an earlier run's.
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(- wall time \d+ s, load average before [0-9.]+, at the end )"
                                                  R"([0-9.]+ on \d+ cores; started 20\d\d-\d\d-\d\dT[0-9:]+Z)")))
      << r.out;
}

// A scenarios folder (PERFLAB_SCENARIOS) whose share study is the shipped one but for the [validate]
// criteria of each of its validation files (validate.toml and the validate-headline.toml it lists in
// `also`, both of which `validate share` runs): each "KEY = VALUE" line of `criteria` replaces the line of
// that key.
fs::path share_with_criteria(const TempDir& dir, const std::vector<std::string>& criteria) {
  const fs::path shipped = fs::path(PERFLAB_SCENARIOS) / "share";
  const fs::path study = dir / "scenarios" / "share";
  fs::create_directories(study);
  for (const auto& entry : fs::directory_iterator(shipped)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("validate", 0) != 0 || entry.path().extension() != ".toml") {
      fs::create_symlink(entry.path(), study / name);
      continue;
    }
    std::istringstream in(read_file(entry.path()));
    std::string text;
    for (std::string line; std::getline(in, line);) {
      for (const std::string& criterion : criteria) {
        if (line.rfind(criterion.substr(0, criterion.find(" = ") + 3), 0) == 0) line = criterion;
      }
      text += line + "\n";
    }
    write_file(study / name, text);
  }
  return dir / "scenarios";
}

const char* const kSmallValidation =
    "validate share --quick --set params.file_size='\"256KiB\"' --set 'network.latency=\"constant(2ms)\"'";

// The verdict is the exit status, end to end: criteria no real run can meet (sim and real alike to 1e-12)
// fail, exit 1, the table saying which; criteria any run meets hold, exit 0. (Those judge loop_calls
// alone: its ranks over the points are the loop policies' and never reorder; the durations' do, and no
// rank bound >= 0 holds for every run.)
TEST(Validate, AFailedCriterionExitsOneAndHeldCriteriaExitZero) {
  TempDir dir;
  auto failed =
      run_perflab(kSmallValidation,
                  {{"PERFLAB_SCENARIOS",
                    share_with_criteria(dir, {"mean_abs_log = 1e-12", "max_abs_log = 1e-12"}).string()}});
  EXPECT_EQ(failed.status, 1) << failed.err;
  EXPECT_NE(failed.out.find("| mean abs ln(real/sim) |"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("| <= 1e-12 | **failed** |"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("Verdict: **failed**: mean abs ln(real/sim)"), std::string::npos) << failed.out;

  TempDir lenient;
  auto held = run_perflab(
      kSmallValidation,
      {{"PERFLAB_SCENARIOS",
        share_with_criteria(lenient, {"metrics = [\"loop_calls\"]", "mean_abs_log = 10", "max_abs_log = 10",
                                      "ratio_tolerance = 100", "rank_tau = 0"})
            .string()}});
  EXPECT_EQ(held.status, 0) << held.out << held.err;
  EXPECT_EQ(held.out.find("**failed**"), std::string::npos) << held.out;
}

TEST(Validate, AMalformedCriterionIsBadInput) {
  TempDir dir;
  auto r = run_perflab(kSmallValidation,
                       {{"PERFLAB_SCENARIOS", share_with_criteria(dir, {"rank_tau = \"high\""}).string()}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("validate.toml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rank_tau"), std::string::npos) << r.err;
}

TEST(Validate, AStudyWithoutAValidationScenarioIsBadInput) {
  auto r = run_perflab("validate pingpong");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("has no validation scenario"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perflab::testing
