// Request logs (models/dispatcher/request_log.h): columns by name in any order, hosts in order of first
// appearance, optional durations, every bad input with its line; and the host sequence as a micro workload.
#include "models/dispatcher/request_log.h"

#include <gtest/gtest.h>

#include "models/dispatcher/workloads.h"

namespace perflab::dispatcher {
namespace {

TEST(RequestLog, ReadsColumnsByNameAndNumbersHosts) {
  auto log = parse_request_log(
      "# a comment\nhost,duration_s,time_s\nb.example,0.25,0\na.example,0.5,0.1\n"
      "b.example,0,0.1\n",
      "log.csv");
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->hosts, (std::vector<std::string>{"b.example", "a.example"}));
  ASSERT_EQ(log->requests.size(), 3U);
  EXPECT_EQ(log->requests[1].host, 1);
  EXPECT_DOUBLE_EQ(log->requests[1].time_s, 0.1);
  EXPECT_DOUBLE_EQ(*log->requests[0].duration_s, 0.25);
  EXPECT_TRUE(log->has_durations);
  EXPECT_EQ(log->host_sequence(), (std::vector<std::string>{"b.example", "a.example", "b.example"}));

  auto no_durations = parse_request_log("time_s,host\n1.5,x\n", "log.csv");
  ASSERT_TRUE(no_durations.ok());
  EXPECT_FALSE(no_durations->has_durations);
  EXPECT_FALSE(no_durations->requests[0].duration_s.has_value());
}

TEST(RequestLog, Utf8ByteOrderMarkIsIgnored) {
  auto log = parse_request_log("\xEF\xBB\xBFtime_s,host\r\n0.5,a\r\n", "log.csv");
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_EQ(log->requests.size(), 1U);
  EXPECT_DOUBLE_EQ(log->requests[0].time_s, 0.5);
}

TEST(RequestLog, BadInputNamesTheLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "log.csv: empty file, expected a header time_s,host[,duration_s]"},
      {"time_s,host\n", "log.csv: no requests after the header, expected at least one line"},
      {"time_s\n0\n",
       "log.csv:1: the header has no \"host\" column, expected a header with time_s, host and optionally "
       "duration_s"},
      {"time_s,hostname\n0,a\n",
       "log.csv:1: unknown column \"hostname\" in the header, expected time_s, host and optionally "
       "duration_s"},
      {"time_s,host\n0,a\n-1,a\n", "log.csv:3: time_s -1 is negative, expected >= 0"},
      {"time_s,host\n2,a\n1,a\n",
       "log.csv:3: time_s 1 is before the previous request's, expected the requests in time order (sort the "
       "log "
       "by time)"},
      {"time_s,host\n0,a,b\n", "log.csv:2: 3 fields, expected 2 as in the header"},
      {"time_s,host\nsoon,a\n", "log.csv:2: time_s \"soon\" is not a number, expected seconds"},
      {"time_s,host\n0,\n", "log.csv:2: the host is empty, expected a host name"},
      {"time_s,host,duration_s\n0,a,-2\n",
       "log.csv:2: duration_s \"-2\" is not a number >= 0, expected seconds"},
  };
  for (const auto& [text, message] : cases) {
    auto log = parse_request_log(text, "log.csv");
    ASSERT_FALSE(log.ok()) << text;
    EXPECT_EQ(log.status().message(), message) << text;
  }
  auto missing = read_request_log("/nonexistent/requests.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/requests.csv: cannot open the request log"),
            std::string::npos);
}

// The host sequence as a burst: with maxRequestsPerHost 2, three calls to one host leave one ready, and
// finishing all runs every call.
TEST(RequestLog, HostSequenceWorkloadRunsEveryCall) {
  auto run = WorkloadRun::Create({"a", "a", "b", "a"}, Strategy::kCounter, 64, 2);
  ASSERT_TRUE(run.ok()) << run.status().message();
  WorkloadResult result = (*run)->run();
  EXPECT_EQ(result.calls, 4U);
  EXPECT_EQ(result.executed, 4U);
  EXPECT_FALSE(WorkloadRun::Create({}, Strategy::kCounter, 64, 2).ok());
}

}  // namespace
}  // namespace perflab::dispatcher
