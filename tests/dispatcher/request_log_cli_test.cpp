// A request log as the dispatcher's workload, through the perflab binary: the shipped example on the
// incident simulation (calls and hosts from the log), server times taken from the log's duration_s, the
// micro engine's burst of the log's hosts, and bad logs refused with exit 2 before anything runs.
#include <gtest/gtest.h>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

const std::string kScenario = std::string(PERFLAB_SCENARIOS) + "/dispatcher/request-log.toml";

std::string incident_scenario(const std::string& log, const std::string& extra = "") {
  return "[scenario]\nname = \"log\"\nstudy = \"dispatcher\"\nengine = \"sim\"\nseeds = 1\n"
         "[network]\nlatency = \"constant(0ms)\"\nbandwidth = \"1GBps\"\n"
         "[params]\nrequest_log = \"" +
         log + "\"\nstrategy = \"counter\"\nserver_time = \"constant(10ms)\"\n" + extra;
}

TEST(RequestLogCli, ExampleLogOnTheIncidentSimulation) {
  TempDir dir;
  auto r =
      run_perflab("run " + kScenario + " --seeds 1 --set 'sweep.strategy=[\"scan\",\"counter\"]' --out " +
                  dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "dispatcher-request-log.csv"));
  ASSERT_EQ(rows.size(), 4U);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("calls"), "781");  // the log's requests
    EXPECT_EQ(row.at("hosts"), "3");    // its distinct hosts
    EXPECT_EQ(row.at("error"), "");
    // Each call takes the lock twice in enqueue() and twice in finished().
    EXPECT_EQ(row.at("lock_acquisitions"), std::to_string(4 * 781));
  }
  // The spike builds a backlog under 5 calls per host, not under 64: latency tells them apart.
  auto p99 = [&](const std::string& limit) {
    for (const auto& row : rows)
      if (row.at("max_requests_per_host") == limit && row.at("strategy") == "counter")
        return std::stod(row.at("latency_p99_s"));
    return -1.0;
  };
  EXPECT_GT(p99("5"), 3 * p99("64"));
  // The summary's fixed values are those the run used: the log, not the Poisson rate or host popularity
  // it replaced (the CSV keeps every column).
  const std::string summary = read_file(dir / "dispatcher-request-log.md");
  EXPECT_NE(summary.find("request_log = data/example-requests.csv"), std::string::npos) << summary;
  EXPECT_NE(summary.find("calls = 781"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("arrival_rate"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("host_popularity"), std::string::npos) << summary;
  EXPECT_EQ(rows[0].at("arrival_rate"), "2000");
}

TEST(RequestLogCli, WithoutALogTheArrivalKnobsAreShown) {
  TempDir dir;
  write_file(dir / "s.toml", incident_scenario("", "calls = 20\n"));
  auto r = run_perflab("run " + (dir / "s.toml").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("arrival_rate = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host_popularity = "), std::string::npos) << r.out;
}

TEST(RequestLogCli, ServerTimeAndArrivalsFromTheLog) {
  TempDir dir;
  write_file(dir / "log.csv", "time_s,host,duration_s\n0,a,1.5\n0.5,b,1.5\n2,a,1.5\n");
  write_file(dir / "s.toml", incident_scenario("log.csv"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "out" / "log.csv"));
  ASSERT_EQ(rows.size(), 1U);
  // The last call arrives at 2 s and its server takes 1.5 s (not server_time's 10 ms).
  EXPECT_NEAR(std::stod(rows[0].at("duration_s")), 3.5, 0.01);
  EXPECT_NEAR(std::stod(rows[0].at("latency_p50_s")), 1.5, 0.01);
}

TEST(RequestLogCli, MicroEngineBurstOfTheLogsHosts) {
  TempDir dir;
  write_file(dir / "s.toml",
             "[scenario]\nname = \"burst\"\nstudy = \"dispatcher\"\nengine = \"micro\"\nrepetitions = 1\n"
             "[params]\nrequest_log = \"" +
                 std::string(PERFLAB_SCENARIOS) +
                 "/dispatcher/data/example-requests.csv\"\nmax_requests_per_host = 5\n"
                 "[sweep]\nstrategy = [\"scan\", \"counter\"]\n");
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "out" / "burst.csv"));
  ASSERT_EQ(rows.size(), 2U);
  for (const auto& row : rows) EXPECT_EQ(row.at("n"), "781");
  // The scan rescans the backlog on every promotion; the counter does not.
  EXPECT_GT(std::stod(rows[0].at("ops_under_lock")), 10 * std::stod(rows[1].at("ops_under_lock")));
}

TEST(RequestLogCli, BadLogsAreRefusedBeforeAnythingRuns) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"time_s\n0\n", "log.csv:1: the header has no \"host\" column"},
      {"time_s,server\n0,a\n", "log.csv:1: unknown column \"server\" in the header"},
      {"time_s,host\n-0.5,a\n", "log.csv:2: time_s -0.5 is negative, expected >= 0"},
      {"time_s,host\n1,a\n0,a\n", "log.csv:3: time_s 0 is before the previous request's"},
      {"", "log.csv: empty file"},
  };
  write_file(dir / "s.toml", incident_scenario("log.csv"));
  for (const auto& [text, message] : cases) {
    write_file(dir / "log.csv", text);
    auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + (dir / "out").string());
    EXPECT_EQ(r.status, 2) << text;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << text;
  }
  write_file(dir / "log.csv", "time_s,host\n0,a\n");
  write_file(dir / "c.toml", incident_scenario("log.csv", "calls = 10\n"));
  auto r = run_perflab("run " + (dir / "c.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("calls = 10 conflicts with request_log's 1 requests, expected calls left out"),
            std::string::npos)
      << r.err;
  write_file(dir / "m.toml", incident_scenario("missing.csv"));
  auto missing = run_perflab("run " + (dir / "m.toml").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing.csv\" does not exist"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace perflab::testing
