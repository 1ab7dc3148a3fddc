// The micro engine on a test-only study registered here: every grid point gets `repetitions` timed runs
// after an untimed warm-up, the median becomes `seconds`, the raw repetitions are kept, and counters come
// from the real workload.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/cli/commands.h"
#include "sim/engines/micro_engine.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

Study summing_study() {
  Study study;
  study.name = "test-summing";
  study.description = "sums n integers (micro engine self-test)";
  study.params = {int_param("n", "1000", "how many integers").at_least(1)};
  study.metrics = {{"seconds", "median wall time"}, {"sum", "the checksum"}};
  study.setup_micro = [](const Params& params, const PointInputs&) -> Result<MicroWorkload> {
    int64_t n = params.integer("n");
    MicroWorkload workload;
    workload.run = [n] {
      volatile int64_t sum = 0;
      for (int64_t i = 1; i <= n; ++i) sum = sum + i;
      return Metrics{{"sum", static_cast<double>(sum)}};
    };
    workload.report = [](double seconds, const Metrics& counters) {
      return Metrics{{"seconds", seconds}, {"sum", counters.at("sum")}};
    };
    return workload;
  };
  return study;
}

const StudyRegistration registration(summing_study);

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Each repetition allocates `mib` MiB in small blocks, touches them and frees them all: glibc would trim
// the freed heap top back to the kernel, and the next repetition would fault every page in again.
Study churning_study() {
  Study study;
  study.name = "test-churning";
  study.description = "allocates and frees many small blocks (micro engine self-test)";
  study.params = {int_param("mib", "96", "MiB allocated per repetition").at_least(1)};
  study.metrics = {{"seconds", "median wall time"}, {"page_faults", "minor faults, last repetition"}};
  study.setup_micro = [](const Params& params, const PointInputs&) -> Result<MicroWorkload> {
    const int64_t blocks = params.integer("mib") * (1 << 20) / 256;
    MicroWorkload workload;
    workload.run = [blocks] {
      const long faults_before = minor_page_faults();
      std::vector<std::unique_ptr<char[]>> allocated;
      allocated.reserve(static_cast<size_t>(blocks));
      for (int64_t i = 0; i < blocks; ++i) {
        allocated.push_back(std::make_unique<char[]>(256));  // value-initialised: every page is written
      }
      allocated.clear();
      return Metrics{{"page_faults", static_cast<double>(minor_page_faults() - faults_before)}};
    };
    workload.report = [](double seconds, const Metrics& counters) {
      return Metrics{{"seconds", seconds}, {"page_faults", counters.at("page_faults")}};
    };
    return workload;
  };
  return study;
}

const StudyRegistration churning_registration(churning_study);

TEST(SimMicroEngine, RunsRepetitionsAndReportsTheMedian) {
  Params params;
  params.set("n", ParamValue{int64_t{100000}, "100000"});
  auto result = run_micro(*find_study("test-summing"), params, PointInputs{}, 5);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->repetitions.size(), 5U);
  auto sorted = result->repetitions;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_DOUBLE_EQ(result->metrics.at("seconds"), sorted[2]);
  EXPECT_DOUBLE_EQ(result->metrics.at("sum"), 100000.0 * 100001.0 / 2);
}

// set_up and tear_down sleep 100 ms each and log their calls; run() only logs. `fail` makes set_up fail.
// fixture_untimed: per run, how long its set_up and its tear_down took (steady_clock, as Google Benchmark
// reads time). A repetition timed with either holds all of that call's time; one timed without holds only
// run(), which does nothing.
std::vector<std::string> fixture_log;
std::vector<std::pair<double, double>> fixture_untimed;
Study fixture_study() {
  Study study;
  study.name = "test-fixture";
  study.description = "untimed set-up and tear-down (micro engine self-test)";
  study.params = {bool_param("fail", "false", "set_up fails")};
  study.metrics = {{"seconds", "median wall time"}};
  study.setup_micro = [](const Params& params, const PointInputs&) -> Result<MicroWorkload> {
    const bool fail = params.boolean("fail");
    MicroWorkload workload;
    workload.set_up = [fail] {
      fixture_log.push_back("set_up");
      const auto start = std::chrono::steady_clock::now();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      fixture_untimed.emplace_back(seconds_since(start), 0.0);
      return fail ? Status::Error("no fixture today") : Status::OK();
    };
    workload.run = [] {
      fixture_log.push_back("run");
      return Metrics{};
    };
    workload.tear_down = [] {
      fixture_log.push_back("tear_down");
      const auto start = std::chrono::steady_clock::now();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      fixture_untimed.back().second = seconds_since(start);
    };
    workload.report = [](double seconds, const Metrics&) { return Metrics{{"seconds", seconds}}; };
    return workload;
  };
  return study;
}

const StudyRegistration fixture_registration(fixture_study);

TEST(SimMicroEngine, SetUpAndTearDownRunAroundEachRepetitionOffTheClock) {
  fixture_log.clear();
  fixture_untimed.clear();
  Params params;
  params.set("fail", ParamValue{false, "false"});
  auto result = run_micro(*find_study("test-fixture"), params, PointInputs{}, 2);
  ASSERT_TRUE(result.ok()) << result.status().message();
  // A quick run first warms up, off the record: three runs, two repetitions.
  EXPECT_EQ(fixture_log, (std::vector<std::string>{"set_up", "run", "tear_down", "set_up", "run", "tear_down",
                                                   "set_up", "run", "tear_down"}));
  ASSERT_EQ(result->repetitions.size(), 2U);
  ASSERT_EQ(fixture_untimed.size(), 3U);
  for (size_t i = 0; i < 2; ++i) {
    const auto [set_up, tear_down] = fixture_untimed[i + 1];  // after the warm-up's
    EXPECT_LT(result->repetitions[i], set_up) << "repetition " << i << " was timed with its set_up";
    EXPECT_LT(result->repetitions[i], tear_down) << "repetition " << i << " was timed with its tear_down";
  }
}

// run() sleeps a little longer than the longest warm-up and counts its calls.
int slow_runs = 0;
Study slow_study() {
  Study study;
  study.name = "test-slow";
  study.description = "a run longer than the longest warm-up (micro engine self-test)";
  study.metrics = {{"seconds", "median wall time"}};
  study.setup_micro = [](const Params&, const PointInputs&) -> Result<MicroWorkload> {
    MicroWorkload workload;
    workload.run = [] {
      ++slow_runs;
      std::this_thread::sleep_for(std::chrono::duration<double>(kLongestWarmUpSeconds + 0.05));
      return Metrics{};
    };
    workload.report = [](double seconds, const Metrics&) { return Metrics{{"seconds", seconds}}; };
    return workload;
  };
  return study;
}

const StudyRegistration slow_registration(slow_study);

TEST(SimMicroEngine, ALongFirstRunIsTheFirstRepetitionNotAWarmUp) {
  slow_runs = 0;
  auto result = run_micro(*find_study("test-slow"), Params{}, PointInputs{}, 2);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(slow_runs, 2);
  ASSERT_EQ(result->repetitions.size(), 2U);
  for (double seconds : result->repetitions) {
    EXPECT_GT(seconds, kLongestWarmUpSeconds);
  }
}

TEST(SimMicroEngine, ALongPointTakesTheLongRepetitionCount) {
  slow_runs = 0;
  auto result = run_micro(*find_study("test-slow"), Params{}, PointInputs{}, 5, 2);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(slow_runs, 2);  // the first run (it counts) and one more: 2, not 5
  EXPECT_EQ(result->repetitions.size(), 2U);
}

TEST(SimMicroEngine, AShortPointKeepsEveryRepetition) {
  Params params;
  params.set("n", ParamValue{int64_t{1000}, "1000"});
  auto result = run_micro(*find_study("test-summing"), params, PointInputs{}, 5, 2);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->repetitions.size(), 5U);
}

TEST(SimMicroEngine, LongRepetitionsIsReadAndCappedByRepetitions) {
  TempDir dir;
  const std::string head = "[scenario]\nname = \"m\"\nstudy = \"test-summing\"\nengine = \"micro\"\n";
  write_file(dir / "m.toml", head + "repetitions = 5\nlong_repetitions = 3\n");
  auto scenario = load_scenario(dir / "m.toml", {});
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  EXPECT_EQ(scenario->repetitions, 5);
  EXPECT_EQ(scenario->long_repetitions, 3);
  auto quick = load_scenario(dir / "m.toml", {{"scenario.repetitions", "2"}});  // fewer than the long count
  ASSERT_TRUE(quick.ok()) << quick.status().message();
  EXPECT_EQ(quick->long_repetitions, 2);
  write_file(dir / "d.toml", head + "repetitions = 4\n");
  auto plain = load_scenario(dir / "d.toml", {});
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->long_repetitions, 4);  // not given: every point alike
}

TEST(SimMicroEngine, AFailedSetUpIsTheRunsError) {
  fixture_log.clear();
  Params params;
  params.set("fail", ParamValue{true, "true"});
  auto result = run_micro(*find_study("test-fixture"), params, PointInputs{}, 3);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("no fixture today"), std::string::npos)
      << result.status().message();
  EXPECT_EQ(std::count(fixture_log.begin(), fixture_log.end(), "run"), 0);
}

TEST(SimMicroEngine, LaterRepetitionsReuseTheMemoryEarlierOnesFreed) {
  Params params;
  params.set("mib", ParamValue{int64_t{96}, "96"});
  auto result = run_micro(*find_study("test-churning"), params, PointInputs{}, 3);
  ASSERT_TRUE(result.ok()) << result.status().message();
  const double pages_touched = 96.0 * (1 << 20) / 4096;
  EXPECT_LT(result->metrics.at("page_faults"), pages_touched / 100);  // without the policy: ~all of them
}

TEST(SimMicroEngine, SweepGivesTheSameCsvShapeAsTheSimEngine) {
  TempDir dir;
  write_file(dir / "m.toml",
             "[scenario]\nname = \"m\"\nstudy = \"test-summing\"\nengine = \"micro\"\n"
             "repetitions = 3\n[sweep]\nn = [10, 1000]\n");
  auto scenario = load_scenario(dir / "m.toml", {});
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  auto table = run_scenario(*scenario, RunOptions{});
  ASSERT_TRUE(table.ok()) << table.status().message();
  ASSERT_EQ(table->rows.size(), 2U);
  for (const auto& row : table->rows) {
    EXPECT_TRUE(row.error.empty()) << row.error;
    EXPECT_EQ(row.repetitions.size(), 3U);
    EXPECT_GT(row.metrics.at("seconds"), 0);
  }
  EXPECT_DOUBLE_EQ(table->rows[1].metrics.at("sum"), 500500);
}

TEST(SimMicroEngine, NetworkTableIsRejectedForMicroScenarios) {
  TempDir dir;
  write_file(dir / "m.toml",
             "[scenario]\nname = \"m\"\nstudy = \"test-summing\"\nengine = \"micro\"\n"
             "[network]\nlatency = \"constant(1ms)\"\nbandwidth = \"1MBps\"\n");
  auto scenario = load_scenario(dir / "m.toml", {});
  ASSERT_FALSE(scenario.ok());
  EXPECT_NE(scenario.status().message().find("m.toml:5: [network] is meaningless"), std::string::npos)
      << scenario.status().message();
}

}  // namespace
}  // namespace perflab::testing
