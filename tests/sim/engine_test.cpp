// End-to-end behaviour of the sim engine and the sweep runner, through the perflab binary: exact latency,
// closed forms, determinism across --jobs, crash and timeout isolation, resume, timeline export.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <sys/wait.h>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

// The value of `column` in data row `row` (0: the first) of a CSV.
double csv_value(const std::string& csv, const std::string& column, int row = 0) {
  const std::vector<CsvRow> rows = parse_csv(csv);
  if (row >= static_cast<int>(rows.size())) {
    ADD_FAILURE() << "no row " << row << " in a CSV of " << rows.size() << " rows";
    return 0;
  }
  const auto value = rows[row].find(column);
  if (value == rows[row].end()) {
    ADD_FAILURE() << "no column " << column << " in " << csv.substr(0, csv.find('\n'));
    return 0;
  }
  return std::stod(value->second);
}

TEST(SimEngine, TinyMessageOverTenMillisecondLinkTakesTenMilliseconds) {
  TempDir dir;
  write_file(dir / "s.toml",
             pingpong_scenario("s", "[params]\nrequests = 1\nrequest_size = \"1B\"\nreply_size = \"1B\"\n",
                               "constant(10ms)"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  double rtt = csv_value(read_file(dir / "s.csv"), "rtt_mean_s");
  // One byte each way at 100 MB/s adds 2e-8 s; the default SimGrid model would give ~0.26 s.
  EXPECT_NEAR(rtt, 0.020, 1e-6);
}

TEST(SimEngine, PingpongMatchesClosedForm) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s",
                                               "[params]\nrequests = 100\nrequest_size = \"1KiB\"\n"
                                               "reply_size = \"1MiB\"\n"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  double transfer = (1024.0 + 1048576.0) / 100e6;
  std::string csv = read_file(dir / "s.csv");
  EXPECT_NEAR(csv_value(csv, "duration_s"), 100 * (2 * 0.020 + transfer), 1e-9);
  EXPECT_NEAR(csv_value(csv, "messages"), 200, 0);
}

TEST(SimEngine, RandomLatencyMeanMatchesDistribution) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s",
                                               "[params]\nrequests = 2000\nrequest_size = \"0B\"\n"
                                               "reply_size = \"0B\"\n",
                                               "exponential(15ms)"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  // 4000 exponential draws: the mean round trip is 30 ms with a standard error of about 0.34 ms.
  EXPECT_NEAR(csv_value(read_file(dir / "s.csv"), "rtt_mean_s"), 0.030, 5 * 0.00034);
}

TEST(SimEngine, SameScenarioSameCsvWhateverJobs) {
  TempDir dir;
  write_file(dir / "s.toml",
             "[scenario]\nname = \"s\"\nstudy = \"pingpong\"\nseeds = 4\n[network]\n"
             "latency = \"lognormal(20ms, 0.5)\"\nbandwidth = \"10MBps\"\n"
             "[sweep]\nrequests = [10, 20, 30]\nreply_size = [\"1KiB\", \"64KiB\"]\n");
  auto one = run_perflab("run " + (dir / "s.toml").string() + " --jobs 1 --out " + (dir / "j1").string());
  auto two = run_perflab("run " + (dir / "s.toml").string() + " --jobs 2 --out " + (dir / "j2").string());
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(two.status, 0) << two.err;
  std::string csv = read_file(dir / "j1" / "s.csv");
  EXPECT_EQ(csv, read_file(dir / "j2" / "s.csv"));
  EXPECT_EQ(read_file(dir / "j1" / "s.summary.csv"), read_file(dir / "j2" / "s.summary.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 * 2 * 4);
  // Different seeds give different durations: the latency really is random.
  EXPECT_NE(csv_value(csv, "duration_s", 0), csv_value(csv, "duration_s", 1));
}

TEST(SimEngine, AbortingPointIsAFailedRowAndTheRestFinishes) {
  TempDir dir;
  write_file(dir / "s.toml",
             pingpong_scenario("s", "[params]\nrequests = 3\n[sweep]\nfault = [\"none\", \"abort\"]\n"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + dir.path().string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("1 of 2 runs failed"), std::string::npos) << r.err;
  std::string csv = read_file(dir / "s.csv");
  EXPECT_NE(csv.find("crashed (signal 6"), std::string::npos) << csv;
  EXPECT_NEAR(csv_value(csv, "duration_s", 0), 3 * (0.04 + 2 * 1024 / 100e6), 1e-9);
  EXPECT_NE(r.out.find("Failed runs"), std::string::npos);
}

TEST(SimEngine, HangingPointIsKilledAtThePointTimeout) {
  TempDir dir;
  write_file(dir / "s.toml",
             pingpong_scenario("s", "[params]\nrequests = 3\n[sweep]\nfault = [\"hang\", \"none\"]\n"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --point-timeout 500ms --jobs 1 --out " +
                       dir.path().string());
  EXPECT_EQ(r.status, 1);
  std::string csv = read_file(dir / "s.csv");
  EXPECT_NE(csv.find("timed out: exceeded --point-timeout 500 ms"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",none,"), std::string::npos) << csv;
}

// 40 runs of a few tens of milliseconds: stopped once 5 are journaled, some are finished and some not.
const char* const kFortyRuns =
    "[scenario]\nname = \"s\"\nstudy = \"pingpong\"\nseeds = 4\n[network]\n"
    "latency = \"uniform(1ms, 9ms)\"\nbandwidth = \"10MBps\"\n"
    "[sweep]\nrequests = [3000, 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009]\n";

// Marks the first row of an interrupted run's journal: its duration_s becomes 12345 s, a value no run
// gives. A resume that reuses the finished rows keeps the mark; one that reran them would not. Returns the
// marked row's index in the CSV (point x 4 seeds + replication).
size_t mark_first_journaled_row(const fs::path& journal) {
  std::string text = read_file(journal);
  const size_t row = text.find('\n') + 1;  // the first line fingerprints the scenario
  const size_t value = text.find(" duration_s=", row) + std::string(" duration_s=").size();
  EXPECT_LT(value, text.find('\n', row)) << text;
  text.replace(value, text.find(' ', value) - value, "12345");
  write_file(journal, text);
  std::istringstream fields(text.substr(row));
  size_t point = 0, replication = 0;
  fields >> point >> replication;
  return point * 4 + replication;
}

// The resumed CSV is the uninterrupted one but for the marked row, which was not run again.
void expect_resumed_without_rerunning(const std::string& resumed, const std::string& full, size_t marked) {
  auto resumed_rows = parse_csv(resumed);
  auto full_rows = parse_csv(full);
  ASSERT_EQ(resumed_rows.size(), 40U);
  ASSERT_EQ(full_rows.size(), 40U);
  for (size_t i = 0; i < full_rows.size(); ++i) {
    if (i == marked) {
      EXPECT_EQ(resumed_rows[i].at("duration_s"), "12345") << "the finished run " << i << " was run again";
      resumed_rows[i]["duration_s"] = full_rows[i].at("duration_s");
    }
    EXPECT_EQ(resumed_rows[i], full_rows[i]) << "row " << i;
  }
}

TEST(SimEngine, ResumeAfterKillGivesTheUninterruptedCsv) {
  TempDir dir;
  write_file(dir / "s.toml", kFortyRuns);
  std::string scenario = (dir / "s.toml").string();
  auto full = run_perflab("run " + scenario + " --jobs 2 --out " + (dir / "full").string());
  ASSERT_EQ(full.status, 0) << full.err;

  pid_t pid = fork();
  if (pid == 0) {
    execl(PERFLAB_BINARY, PERFLAB_BINARY, "run", scenario.c_str(), "--jobs", "1", "--out",
          (dir / "part").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  fs::path journal = dir / "part" / "s.journal";
  auto finished_rows = [&] {
    std::string text = read_file(journal);
    return text.empty() ? 0L : static_cast<long>(std::count(text.begin(), text.end(), '\n')) - 1;
  };
  for (int i = 0; i < 200 && finished_rows() < 5; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  long before = finished_rows();
  ASSERT_GE(before, 5);
  ASSERT_LT(before, 40);
  const size_t marked = mark_first_journaled_row(journal);

  auto resumed = run_perflab("run " + scenario + " --jobs 2 --resume --out " + (dir / "part").string());
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  expect_resumed_without_rerunning(read_file(dir / "part" / "s.csv"), read_file(dir / "full" / "s.csv"),
                                   marked);
  EXPECT_FALSE(fs::exists(journal)) << "a completed run leaves no journal";
}

TEST(SimEngine, CtrlCKeepsFinishedRowsAndResumeCompletesThem) {
  TempDir dir;
  write_file(dir / "s.toml", kFortyRuns);
  std::string scenario = (dir / "s.toml").string();
  std::string out = (dir / "out").string();
  std::string err = (dir / "err").string();
  pid_t pid = fork();
  if (pid == 0) {
    freopen(err.c_str(), "w", stderr);
    freopen("/dev/null", "w", stdout);
    execl(PERFLAB_BINARY, PERFLAB_BINARY, "run", scenario.c_str(), "--jobs", "2", "--out", out.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  fs::path journal = dir / "out" / "s.journal";
  auto journaled = [&] {
    std::string text = read_file(journal);
    return std::count(text.begin(), text.end(), '\n');
  };
  for (int i = 0; i < 200 && journaled() < 5; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_NE(read_file(err).find("interrupted"), std::string::npos);
  std::string partial = read_file(dir / "out" / "s.csv");
  EXPECT_EQ(partial.find("crashed"), std::string::npos) << "an interrupted run is not a failed run";
  long rows = static_cast<long>(std::count(partial.begin(), partial.end(), '\n')) - 1;
  EXPECT_GE(rows, 4);
  EXPECT_LT(rows, 40);
  // The record says so, with how many of how many (the results site shows it).
  std::string said = std::to_string(rows) + " of 40 runs";
  EXPECT_NE(read_file(err).find("perflab: interrupted: " + said), std::string::npos) << read_file(err);
  std::string meta = read_file(dir / "out" / "s.meta");
  EXPECT_NE(meta.find("\ninterrupted = " + said + "\n"), std::string::npos) << meta;
  EXPECT_NE(meta.find("\nplanned_runs = 40\n"), std::string::npos) << meta;
  const size_t marked = mark_first_journaled_row(journal);

  auto resumed = run_perflab("run " + scenario + " --jobs 2 --resume --out " + out);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  auto full = run_perflab("run " + scenario + " --jobs 1 --out " + (dir / "full").string());
  ASSERT_EQ(full.status, 0) << full.err;
  expect_resumed_without_rerunning(read_file(dir / "out" / "s.csv"), read_file(dir / "full" / "s.csv"),
                                   marked);
}

TEST(SimEngine, ResumeRefusesAChangedScenario) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[sweep]\nrequests = [1, 2]\n"));
  fs::create_directories(dir / "out");
  write_file(dir / "out" / "s.journal", "perflab-journal-v1 12345\n");
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --resume --out " + (dir / "out").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("different scenario"), std::string::npos) << r.err;
}

TEST(SimEngine, SetMovesAParameterBetweenParamsAndSweep) {
  TempDir dir;
  write_file(dir / "s.toml",
             pingpong_scenario("s", "[params]\nreply_size = \"1KiB\"\n[sweep]\nrequests = [1, 2, 3]\n"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --set params.requests=5 " +
                       "--set 'sweep.reply_size=[\"1KiB\",\"2KiB\"]' --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;  // header + 2 points
  EXPECT_NE(r.out.find("\n5,1024,2048,"), std::string::npos) << r.out;  // sizes are bytes in CSV
}

TEST(SimEngine, CsvHoldsBaseUnitsAndTablesKeepTheScenarioSpelling) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[sweep]\nreply_size = [\"1KiB\", \"1MiB\"]\n"));
  auto csv = run_perflab("run " + (dir / "s.toml").string() + " --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find(",1048576,"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find("KiB"), std::string::npos) << csv.out;
  auto md = run_perflab("run " + (dir / "s.toml").string() + " --format md");
  ASSERT_EQ(md.status, 0) << md.err;
  EXPECT_NE(md.out.find("| 1MiB |"), std::string::npos) << md.out;
}

// The summary's "Fixed:" line shows values only: a parameter the scenario leaves at the study's own default
// (share's empty `file`, its -1 "not set" costs) is listed as such, not as "file = " or "call_cost = -1".
TEST(SimEngine, TheFixedLineListsUnsetParametersAsLeftAtTheirDefaults) {
  TempDir dir;
  write_file(dir / "s.toml",
             "[scenario]\nname = \"s\"\nstudy = \"share\"\n[network]\nlatency = \"constant(1ms)\"\n"
             "bandwidth = \"100MBps\"\n[params]\nfile_size = \"256KiB\"\n[sweep]\nloop = [\"eager\", "
             "\"coalesced\"]\n");
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string fixed = r.out.substr(r.out.find("Fixed: "));
  const std::string line = fixed.substr(0, fixed.find('\n'));
  EXPECT_EQ(line.find("= -1"), std::string::npos) << line;
  EXPECT_EQ(line.find("file = ,"), std::string::npos) << line;
  EXPECT_NE(line.find("file_size = 256KiB"), std::string::npos) << line;
  EXPECT_NE(line.find(". Left at their defaults: file, "), std::string::npos) << line;
  EXPECT_NE(line.find("call_cost"), std::string::npos) << line;
}

TEST(SimEngine, JsonAndMarkdownSummaries) {
  TempDir dir;
  write_file(dir / "s.toml",
             "[scenario]\nname = \"s\"\nstudy = \"pingpong\"\nseeds = 3\n[network]\n"
             "latency = \"normal(20ms, 5ms)\"\nbandwidth = \"100MBps\"\n[sweep]\nrequests = [5, 10]\n");
  auto json = run_perflab("run " + (dir / "s.toml").string() + " --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto summary_json = nlohmann::json::parse(json.out);
  EXPECT_EQ(summary_json["scenario"], "s");
  ASSERT_EQ(summary_json["points"].size(), 2u) << json.out;
  // Parameters keep their types: numbers (in base units, as in the CSV) and text where the value is text.
  const auto& params = summary_json["points"][1]["params"];
  EXPECT_EQ(params["requests"], 10) << json.out;
  EXPECT_TRUE(params["requests"].is_number_integer()) << json.out;
  EXPECT_EQ(params["request_size"], 1024.0) << json.out;
  EXPECT_EQ(params["network.bandwidth"], 1e8) << json.out;
  EXPECT_EQ(params["network.latency"], "normal(20 ms, 5 ms)") << json.out;
  EXPECT_EQ(params["fault"], "none") << json.out;
  const auto& duration = summary_json["points"][0]["metrics"]["duration_s"];
  EXPECT_EQ(duration["n"], 3) << json.out;
  EXPECT_GT(duration["mean"].get<double>(), 0);
  EXPECT_LE(duration["ci95_low"].get<double>(), duration["mean"].get<double>());
  auto md = run_perflab("run " + (dir / "s.toml").string() + " --out " + dir.path().string());
  EXPECT_NE(md.out.find("| requests | duration_s | rtt_mean_s | messages |"), std::string::npos) << md.out;
  EXPECT_TRUE(std::regex_search(md.out, std::regex(R"(\| [0-9.]+ \[[0-9.]+, [0-9.]+\] \|)"))) << md.out;
  EXPECT_EQ(read_file(dir / "s.md"), md.out);
  std::string summary = read_file(dir / "s.summary.csv");
  EXPECT_NE(
      summary.find("duration_s_mean,duration_s_ci95_low,duration_s_ci95_high,duration_s_min,duration_s_max"),
      std::string::npos)
      << summary;
}

TEST(SimEngine, TimelineHasOneTrackPerActorAndASpanPerMessage) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[params]\nrequests = 4\n"));
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --timeline " + (dir / "t.json").string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::string json = read_file(dir / "t.json");
  EXPECT_NE(json.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(json.find("{\"name\":\"client\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"name\":\"server\"}"), std::string::npos) << json;
  size_t spans = 0;
  for (size_t at = json.find("\"ph\":\"X\""); at != std::string::npos; at = json.find("\"ph\":\"X\"", at + 1))
    ++spans;
  EXPECT_EQ(spans, 8U);                            // 4 requests + 4 replies
  const auto trace = nlohmann::json::parse(json);  // valid JSON, one event per span and per track
  EXPECT_EQ(trace["traceEvents"].size(), 10U);
  EXPECT_GE(trace["traceEvents"][2]["dur"].get<double>(), 0);
}

TEST(SimEngine, ListShowsShippedScenarios) {
  auto r = run_perflab("list");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("pingpong/wan.toml"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("invalid"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace perflab::testing
