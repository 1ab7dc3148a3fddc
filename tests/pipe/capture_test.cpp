// `perflab capture pipe` end to end on commands that are not git: coreutils' seq (it writes through stdio),
// a Python program and a dash script: each trace holds every byte written, and the scenario written replays
// them through every pump and pipe size. Bad inputs: a failing command (its stderr in the error), a command
// that is not there, a trace with a bad line, an --out that holds a capture already, a --name that is a
// path; each exits 2 and writes nothing. SIGINT and SIGTERM leave no process and nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <iterator>
#include <sstream>

#include "tests/sim/cli_runner.h"
#include "tests/sim/no_orphans.h"

namespace perflab::testing {
namespace {

namespace fs = std::filesystem;

// The writes of a trace file: how many, and their bytes.
struct TraceTotals {
  uint64_t writes = 0;
  uint64_t bytes = 0;
};
TraceTotals trace_totals(const std::string& trace) {
  TraceTotals totals;
  std::istringstream in(trace);
  bool header = false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      EXPECT_EQ(line, "time_s,bytes,copied_s");
      header = true;
      continue;
    }
    totals.bytes += std::stoull(line.substr(line.find(',') + 1));
    ++totals.writes;
  }
  return totals;
}

TEST(CapturePipe, SeqTraceHoldsEveryByteAndReplays) {
  TempDir dir;
  const fs::path out = dir / "capture";
  auto r = run_perflab("capture pipe --out " + out.string() + " --runs 3 -- seq 1 200000");
  ASSERT_EQ(r.status, 0) << r.err;
  // seq 1 200000 prints 1,288,895 bytes: 9 one-digit numbers, 90 two-digit, ... each with its newline.
  const uint64_t expected = 9 * 2 + 90 * 3 + 900 * 4 + 9000 * 5 + 90000 * 6 + 100001 * 7;
  ASSERT_EQ(expected, 1288895U);
  const std::string trace = read_file(out / "seq.64KiB.writes.csv");
  const auto [writes, total] = trace_totals(trace);
  EXPECT_EQ(total, expected);
  // stdio's writes are recorded one by one (blocks of the pipe's 4 KiB st_blksize; a larger fwrite goes
  // out whole), not as one unrecorded lump.
  EXPECT_GE(writes, expected / 8192);
  EXPECT_LE(writes, (expected + 4095) / 4096);
  EXPECT_NE(trace.find("# real: reads="), std::string::npos);
  EXPECT_NE(r.out.find("| seq.64KiB.writes.csv |"), std::string::npos) << r.out;

  auto ran = run_perflab("run " + (out / "seq.toml").string() + " --seeds 1 --out " + (dir / "run").string());
  ASSERT_EQ(ran.status, 0) << ran.err;
  auto rows = parse_csv(read_file(dir / "run" / "pipe-seq.csv"));
  ASSERT_EQ(rows.size(), 3U * 3U * 4U);  // pumps x mechanisms x pipe sizes
  // The summary shows the knobs the replay used, not the git writer's pack size and rate.
  EXPECT_NE(ran.out.find("writer = trace"), std::string::npos) << ran.out;
  EXPECT_EQ(ran.out.find("transfer_bytes"), std::string::npos) << ran.out;
  EXPECT_EQ(ran.out.find("pack_rate"), std::string::npos) << ran.out;
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("error"), "");
    EXPECT_GT(std::stod(row.at("reads")), 0);
  }
}

// CPython builds sys.stdout on fileno(stdout) and writes with write(2) itself: every line is recorded.
TEST(CapturePipe, APythonProgramIsRecorded) {
  TempDir dir;
  const fs::path out = dir / "capture";
  auto r =
      run_perflab("capture pipe --out " + out.string() + " --name py -- /usr/bin/python3 -c " +
                  "'import sys\nfor i in range(20000): print(\"line\", i)\nsys.stdout.write(\"end\\n\")'");
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t expected = 4;  // "end\n"
  for (int i = 0; i < 20000; ++i) expected += 6 + std::to_string(i).size();
  const auto totals = trace_totals(read_file(out / "py.64KiB.writes.csv"));
  EXPECT_EQ(totals.bytes, expected);
  EXPECT_GE(totals.writes, expected / 8192);  // its 8 KiB buffer's writes, each recorded
  EXPECT_EQ(r.err.find("written past the recorder"), std::string::npos) << r.err;
}

// dash writes with write(2) and leaves through _exit(): its writes are recorded all the same.
TEST(CapturePipe, AShellScriptIsRecorded) {
  TempDir dir;
  const fs::path out = dir / "capture";
  auto r = run_perflab("capture pipe --out " + out.string() +
                       " --name script -- sh -c 'i=0; while [ $i -lt 300 ]; do printf \"line %d\\n\" $i; "
                       "i=$((i+1)); done'");
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t expected = 0;
  for (int i = 0; i < 300; ++i) expected += 6 + std::to_string(i).size();
  const auto totals = trace_totals(read_file(out / "script.64KiB.writes.csv"));
  EXPECT_EQ(totals.bytes, expected);
  EXPECT_EQ(totals.writes, 300u);  // a builtin printf flushes its output as it ends
  EXPECT_EQ(r.err.find("written past the recorder"), std::string::npos) << r.err;
}

// A command that fails says why on its stderr: the error shows it.
TEST(CapturePipe, AFailingCommandsStderrIsInTheError) {
  TempDir dir;
  auto shell = run_perflab("capture pipe --out " + (dir / "a").string() +
                           " -- sh -c 'echo partial; echo \"cannot open config.ini\" >&2; exit 3'");
  EXPECT_EQ(shell.status, 2);
  EXPECT_NE(
      shell.err.find("exited with status 3, expected 0; the end of its stderr:\n  | cannot open config.ini"),
      std::string::npos)
      << shell.err;
  EXPECT_FALSE(fs::exists(dir / "a"));
  auto python = run_perflab("capture pipe --out " + (dir / "b").string() +
                            " -- /usr/bin/python3 -c 'print(1)\nraise SystemExit(\"no input file given\")'");
  EXPECT_EQ(python.status, 2);
  EXPECT_NE(python.err.find("  | no input file given"), std::string::npos) << python.err;
  auto silent =
      run_perflab("capture pipe --out " + (dir / "c").string() + " -- sh -c 'echo only on stderr >&2'");
  EXPECT_EQ(silent.status, 2);
  EXPECT_NE(silent.err.find(
                "wrote nothing on stdout, expected its output; the end of its stderr:\n  | only on stderr"),
            std::string::npos)
      << silent.err;
}

// SIGINT or SIGTERM, to perflab alone or to its group, stops the command and what it started (its own
// process group), and leaves nothing in --out but what was there (--force: --out holds a file already).
class CapturePipeStopped : public AdoptsOrphans, public ::testing::WithParamInterface<StopSignal> {};

TEST_P(CapturePipeStopped, StopsTheCommandAndWritesNothing) {
  TempDir dir;
  const fs::path out = dir / "capture";
  fs::create_directories(out);
  write_file(out / "keep.txt", "the user's");
  expect_signal_leaves_no_process(PERFLAB_BINARY,
                                  {"capture", "pipe", "--out", out.string(), "--force", "--", "sh", "-c",
                                   "printf started; sleep 60; echo never"},
                                  "sleep 60", GetParam().signal, GetParam().to, dir / "err");
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(out)) left.push_back(entry.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"keep.txt"});
}
INSTANTIATE_TEST_SUITE_P(Signals, CapturePipeStopped, ::testing::ValuesIn(kStopSignals), stop_signal_name);

TEST(CapturePipe, FailingOrMissingCommandIsRefusedAndNothingWritten) {
  TempDir dir;
  auto failing =
      run_perflab("capture pipe --out " + (dir / "a").string() + " -- sh -c 'echo partial; exit 4'");
  EXPECT_EQ(failing.status, 2);
  EXPECT_NE(failing.err.find("sh -c 'echo partial; exit 4' exited with status 4, expected 0"),
            std::string::npos)
      << failing.err;
  EXPECT_FALSE(fs::exists(dir / "a"));
  auto missing = run_perflab("capture pipe --out " + (dir / "b").string() + " -- no-such-command-here");
  EXPECT_EQ(missing.status, 2);
  EXPECT_FALSE(fs::exists(dir / "b"));
}

// A second capture into a folder that holds one would overwrite its scenario and orphan its traces: it is
// refused and the first capture's files are left as they were; --force writes over files of the same name.
TEST(CapturePipe, SecondCaptureIntoTheSameFolderIsRefused) {
  TempDir dir;
  const fs::path out = dir / "capture";
  ASSERT_EQ(run_perflab("capture pipe --out " + out.string() + " --name mine -- seq 1 10").status, 0);
  const std::string first = read_file(out / "mine.toml");

  auto again = run_perflab("capture pipe --out " + out.string() + " --name mine -- seq 1 20");
  EXPECT_EQ(again.status, 2) << again.err;
  EXPECT_NE(again.err.find("--out " + out.string() +
                           " already holds mine.64KiB.writes.csv, mine.toml, expected a new or empty folder"),
            std::string::npos)
      << again.err;
  EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
  EXPECT_EQ(read_file(out / "mine.toml"), first);
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 2);

  auto forced = run_perflab("capture pipe --out " + out.string() + " --force --name mine -- seq 1 20");
  EXPECT_EQ(forced.status, 0) << forced.err;
}

// --name is the files' stem inside --out: a path or a name the JVM's -Xlog or TOML would misread is
// refused before anything runs, and --out is not made.
TEST(CapturePipe, NameThatIsNotAPlainFileNameIsRefused) {
  TempDir dir;
  for (const std::string name : {"a/b", "../x", ".hidden", "-x", "a b", "a:b"}) {
    auto r =
        run_perflab("capture pipe --out " + (dir / "out").string() + " --name '" + name + "' -- seq 1 10");
    EXPECT_EQ(r.status, 2) << name << ": " << r.err;
    EXPECT_NE(r.err.find("--name \"" + name + "\" is not a plain file name"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out")) << name;
  }
  auto fine = run_perflab("capture pipe --out " + (dir / "out").string() + " --name my_seq-2.v1 -- seq 1 10");
  EXPECT_EQ(fine.status, 0) << fine.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "my_seq-2.v1.toml"));
}

TEST(CapturePipe, TraceWithABadLineIsRefused) {
  TempDir dir;
  write_file(dir / "bad.writes.csv", "time_s,bytes\n0,4096\n0.001,many\n");
  write_file(dir / "s.toml",
             "[scenario]\nname = \"bad\"\nstudy = \"pipe\"\nengine = \"sim\"\nseeds = 1\n"
             "[network]\nlatency = \"constant(0ms)\"\nbandwidth = \"1GBps\"\n"
             "[params]\nwriter = \"trace\"\ntrace = \"bad.writes.csv\"\nplatform = \"linux\"\n"
             "pump = \"nuprocess-epoll\"\nmechanism = \"none\"\n");
  auto r = run_perflab("run " + (dir / "s.toml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.writes.csv:3:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
}  // namespace perflab::testing
