// The sim runner leaves no process behind (tests/sim/no_orphans.h): not when a run is killed at
// --point-timeout, not when SIGINT or SIGTERM stops the sweep, sent to perflab alone or to its process
// group; a stopped sweep exits 130 or 143 and keeps its journal for --resume. The same for the dispatcher's
// real engine (the prefetch and share real engines: tests/real).
#include <gtest/gtest.h>

#include "tests/sim/cli_runner.h"
#include "tests/sim/no_orphans.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

// Two runs that never end (the pingpong study's harness fault, two seeds of it), run side by side, and two
// that do.
std::string hanging_scenario() {
  return pingpong_scenario("s", "[params]\nrequests = 3\n[sweep]\nfault = [\"hang\", \"none\"]\n");
}

using SimRunner = AdoptsOrphans;

TEST_F(SimRunner, ARunKilledAtThePointTimeoutLeavesNoProcessBehind) {
  TempDir dir;
  write_file(dir / "s.toml", hanging_scenario());
  auto r = run_perflab("run " + (dir / "s.toml").string() +
                       " --seeds 2 --point-timeout 300ms --jobs 2 --out " + (dir / "out").string());
  EXPECT_EQ(r.status, 1) << r.err;
  const auto rows = parse_csv(read_file(dir / "out" / "s.csv"));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_NE(rows[0].at("error").find("timed out"), std::string::npos) << rows[0].at("error");
  EXPECT_NE(rows[1].at("error").find("timed out"), std::string::npos) << rows[1].at("error");
  EXPECT_EQ(rows[2].at("error"), "");
  EXPECT_TRUE(no_process_left());
}

class SimRunnerStopped : public AdoptsOrphans, public ::testing::WithParamInterface<StopSignal> {};

TEST_P(SimRunnerStopped, LeavesNoProcessBehindAndKeepsTheJournal) {
  TempDir dir;
  write_file(dir / "s.toml", hanging_scenario());
  // The runs are forked perflab processes: any descendant is one.
  expect_signal_leaves_no_process(
      PERFLAB_BINARY,
      {"run", (dir / "s.toml").string(), "--seeds", "2", "--jobs", "2", "--out", (dir / "out").string()},
      "perflab", GetParam().signal, GetParam().to, dir / "err");
  EXPECT_TRUE(fs::exists(dir / "out" / "s.journal")) << "an interrupted run can be resumed";
}
INSTANTIATE_TEST_SUITE_P(Signals, SimRunnerStopped, ::testing::ValuesIn(kStopSignals), stop_signal_name);

// The dispatcher's real engine (threads in the forked run, no peer process): calls that take 30 s each.
class DispatcherRealStopped : public AdoptsOrphans, public ::testing::WithParamInterface<StopSignal> {};

TEST_P(DispatcherRealStopped, LeavesNoProcessBehind) {
  TempDir dir;
  write_file(dir / "s.toml",
             "[scenario]\nname = \"s\"\nstudy = \"dispatcher\"\nengine = \"real\"\nseeds = 1\n"
             "[network]\nlatency = \"constant(0.5ms)\"\nbandwidth = \"1GBps\"\n"
             "[params]\ncalls = 50\narrival_rate = 1000\nthreads = 8\nhosts = 2\nmax_requests_per_host = 4\n"
             "max_requests = 8\nstrategy = \"counter\"\nserver_time = \"constant(30s)\"\n");
  expect_signal_leaves_no_process(PERFLAB_BINARY,
                                  {"run", (dir / "s.toml").string(), "--out", (dir / "out").string()},
                                  "perflab", GetParam().signal, GetParam().to, dir / "err");
}
INSTANTIATE_TEST_SUITE_P(Signals, DispatcherRealStopped, ::testing::ValuesIn(kStopSignals), stop_signal_name);

}  // namespace
}  // namespace perflab::testing
