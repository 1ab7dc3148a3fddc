// `perflab rows`, the worker side of the Python layer: the chosen runs' rows in the row codec's form, a
// scenario from stdin, and bad --tasks refused.
#include <gtest/gtest.h>

#include "sim/runner/row_codec.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

std::vector<RunRow> rows_of(const std::string& out) {
  std::vector<RunRow> rows;
  for (size_t start = 0, end; (end = out.find('\n', start)) != std::string::npos; start = end + 1) {
    auto row = decode_row(out.substr(start, end - start));
    EXPECT_TRUE(row.has_value()) << out.substr(start, end - start);
    if (row) rows.push_back(*row);
  }
  return rows;
}

TEST(Rows, PrintsTheRowsOfTheChosenRuns) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[sweep]\nrequests = [1, 2, 3]\n", "uniform(1ms, 9ms)"));
  auto all = run_perflab("rows " + (dir / "s.toml").string() + " --set scenario.seeds=2 --jobs 2");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(rows_of(all.out).size(), 6U);
  auto some = run_perflab("rows " + (dir / "s.toml").string() + " --set scenario.seeds=2 --tasks 1-2,5");
  ASSERT_EQ(some.status, 0) << some.err;
  auto rows = rows_of(some.out);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0].point, 0U);
  EXPECT_EQ(rows[0].replication, 1);
  EXPECT_EQ(rows[2].point, 2U);
  EXPECT_TRUE(rows[2].ok());
}

TEST(Rows, ReadsAScenarioFromStdin) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", "[sweep]\nrequests = [1, 2]\n"));
  auto r = run_perflab("rows - --origin '<dict>'", {}, dir / "s.toml");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rows_of(r.out).size(), 2U);
  write_file(dir / "bad.toml", pingpong_scenario("s", "[params]\nnope = 1\n"));
  auto bad = run_perflab("rows - --origin '<dict>'", {}, dir / "bad.toml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("<dict>:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("nope"), std::string::npos) << bad.err;
}

TEST(Rows, RefusesBadTasks) {
  TempDir dir;
  write_file(dir / "s.toml", pingpong_scenario("s", ""));
  for (const char* tasks : {"x", "3-1", "1,,2", "-1", "5,2", "1-4,3"}) {  // ranges ascend, never overlap
    auto r = run_perflab("rows " + (dir / "s.toml").string() + " --tasks=" + tasks);
    EXPECT_EQ(r.status, 2) << tasks;
  }
  auto beyond = run_perflab("rows " + (dir / "s.toml").string() + " --tasks 7");
  EXPECT_EQ(beyond.status, 2);
  EXPECT_NE(beyond.err.find("does not exist"), std::string::npos) << beyond.err;
}

}  // namespace
}  // namespace perflab::testing
