// The incident's real engine (scenarios/dispatcher/real_incident.cpp) through the perflab binary, as a user
// runs it: on a small grid every strategy finishes every call and takes the lock as often as the sim does
// (two sections per enqueue, two per finished); a run that outlives the point timeout is a failed row with
// that reason and leaves nothing behind; what the real engine cannot run is refused with the reason. Wall
// times are not compared here: that is what `perflab validate dispatcher` measures.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "tests/sim/cli_runner.h"
#include "tests/sim/no_orphans.h"

namespace perflab::testing {
namespace {

constexpr int kCalls = 300;

// 300 calls to 5 hosts at 3,000 per second, 5 ms each: a run lasts well under a second.
std::string incident_scenario(const std::string& engine, const std::string& extra = "") {
  return "[scenario]\nname = \"s\"\nstudy = \"dispatcher\"\nengine = \"" + engine +
         "\"\nseeds = 1\n"
         "[network]\nlatency = \"constant(0.5ms)\"\nbandwidth = \"1GBps\"\n"
         "[params]\ncalls = " +
         std::to_string(kCalls) +
         "\narrival_rate = 3000\nthreads = 32\nhosts = 5\nmax_requests_per_host = 4\n"
         "server_time = \"constant(5ms)\"\n" +
         extra + "[sweep]\nmax_requests = [8, 32]\nstrategy = [\"scan\", \"counter\", \"indexed\"]\n";
}

std::vector<CsvRow> run_rows(const TempDir& dir, const std::string& engine) {
  write_file(dir / (engine + ".toml"), incident_scenario(engine));
  auto r = run_perflab("run " + (dir / (engine + ".toml")).string() + " --out " + (dir / engine).string());
  EXPECT_EQ(r.status, 0) << r.err;
  return parse_csv(read_file(dir / engine / "s.csv"));
}

using RealIncident = AdoptsOrphans;

TEST_F(RealIncident, EveryStrategyFinishesEveryCallTakingTheLockAsOftenAsTheSim) {
  TempDir dir;
  auto sim = run_rows(dir, "sim");
  auto real = run_rows(dir, "real");
  ASSERT_EQ(sim.size(), 6u);
  ASSERT_EQ(real.size(), 6u);
  for (size_t i = 0; i < real.size(); ++i) {
    const std::string at = real[i]["strategy"] + " at max_requests " + real[i]["max_requests"];
    EXPECT_EQ(real[i]["error"], "") << at;
    EXPECT_EQ(real[i]["lock_acquisitions"], std::to_string(4 * kCalls)) << at;
    EXPECT_EQ(real[i]["lock_acquisitions"], sim[i]["lock_acquisitions"]) << at;
    EXPECT_GT(std::stod(real[i]["throughput_rps"]), 0) << at;
    EXPECT_GT(std::stod(real[i]["ops_under_lock"]), 0) << at;
    EXPECT_GE(std::stod(real[i]["lock_hold_total_s"]), std::stod(real[i]["lock_hold_max_s"])) << at;
    EXPECT_GE(std::stod(real[i]["duration_s"]), 0.1) << at;  // the last arrival is ~0.1 s in
    EXPECT_GE(std::stod(real[i]["sleeps"]), kCalls) << at;   // each application thread's sleep at least
  }
  EXPECT_TRUE(no_process_left());
}

// Whether this process may run SCHED_FIFO, asked in a child so that the test itself keeps its scheduling.
bool fifo_permitted() {
  const pid_t child = fork();
  if (child == 0) {
    sched_param param{};
    param.sched_priority = sched_get_priority_min(SCHED_FIFO);
    _exit(sched_setscheduler(0, SCHED_FIFO, &param) == 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The threads run SCHED_FIFO only when asked (sched_fifo), and every row says whether they got it.
TEST_F(RealIncident, TheRealtimeColumnSaysWhetherSchedFifoWasAskedForAndObtained) {
  TempDir dir;
  for (const bool fifo : {false, true}) {
    const std::string name = fifo ? "fifo" : "plain";
    write_file(dir / (name + ".toml"),
               incident_scenario("real", std::string("sched_fifo = ") + (fifo ? "true" : "false") + "\n"));
    auto r = run_perflab("run " + (dir / (name + ".toml")).string() + " --set 'sweep.max_requests=[8]' " +
                         "--set 'sweep.strategy=[\"indexed\"]' --out " + (dir / name).string());
    ASSERT_EQ(r.status, 0) << r.err;
    auto rows = parse_csv(read_file(dir / name / "s.csv"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]["sched_fifo"], fifo ? "true" : "false");
    EXPECT_EQ(rows[0]["realtime"], fifo && fifo_permitted() ? "1" : "0") << name;
  }
  EXPECT_TRUE(no_process_left());
}

TEST_F(RealIncident, ARunPastThePointTimeoutIsAFailedRowAndLeavesNothingBehind) {
  TempDir dir;
  write_file(dir / "slow.toml", incident_scenario("real"));
  const auto started = std::chrono::steady_clock::now();
  auto r = run_perflab("run " + (dir / "slow.toml").string() +
                       " --set 'params.server_time=\"constant(30s)\"' --set 'sweep.max_requests=[8]' "
                       "--set 'sweep.strategy=[\"counter\"]' --point-timeout 1s --out " +
                       (dir / "out").string());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  auto rows = parse_csv(read_file(dir / "out" / "s.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0].at("error").find("timed out"), std::string::npos) << rows[0].at("error");
  EXPECT_TRUE(no_process_left());
}

TEST_F(RealIncident, TheJvmStrategyIsAFailedRowWithTheReason) {
  TempDir dir;
  write_file(dir / "jvm.toml", incident_scenario("real"));
  auto r = run_perflab("run " + (dir / "jvm.toml").string() +
                       " --set 'sweep.strategy=[\"okhttp-jvm\"]' --set 'sweep.max_requests=[8]' --out " +
                       (dir / "out").string());
  EXPECT_EQ(r.status, 1) << r.err;
  auto rows = parse_csv(read_file(dir / "out" / "s.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0].at("error").find("runs on the micro engine only"), std::string::npos)
      << rows[0].at("error");
}

TEST(RealIncidentInput, ASimOnlyKnobInARealScenarioIsBadInput) {
  TempDir dir;
  write_file(dir / "bad.toml", incident_scenario("real", "ns_per_op = 3\n"));
  auto r = run_perflab("run " + (dir / "bad.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("\"ns_per_op\" is only used by the sim engine"), std::string::npos) << r.err;
}

TEST(RealIncidentInput, AKnobOfTwoEnginesIsRefusedByTheThird) {
  TempDir dir;
  write_file(dir / "micro.toml",
             "[scenario]\nname = \"m\"\nstudy = \"dispatcher\"\nengine = \"micro\"\n"
             "[params]\ncalls = 10\n");
  auto r = run_perflab("run " + (dir / "micro.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("\"calls\" is only used by the sim and real engines"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perflab::testing
