// Whole experiments on the event loop: conservation for every pump and writer, the "none" control, the
// headline shape under H2, and the parameter rules.
#include "models/pipe/pipeline.h"

#include <gtest/gtest.h>

#include "models/pipe/event_loop.h"
#include "tests/pipe/run_to_end.h"

namespace perflab::pipe {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double mib_s(const PipelineResult& r) {
  return static_cast<double>(r.payload_bytes) / r.duration_s / kMiB;
}

PipelineOptions git(Pump pump, size_t pipe_buffer, Platform platform, Mechanism mechanism) {
  PipelineOptions o;
  o.reader.pump = pump;
  o.pipe_buffer = pipe_buffer;
  o.platform = platform;
  o.mechanism = mechanism;
  o.transfer_bytes = 3 * 1024 * 1024 + 12345;  // not a multiple of any buffer
  o.completion_delay = [] { return 0.001; };
  o.timer_phase = 0.007;
  return o;
}

TEST(Pipeline, EveryPumpAndWriterConservesTheBytes) {
  struct Combo {
    Pump pump;
    Platform platform;
  };
  const Combo combos[] = {{Pump::kNuProcessIocp, Platform::kWindows},
                          {Pump::kJdkBlocking, Platform::kWindows},
                          {Pump::kNuProcessEpoll, Platform::kLinux},
                          {Pump::kJdkBlocking, Platform::kLinux}};
  for (const Combo& c : combos) {
    for (Mechanism m : {Mechanism::kPollTick, Mechanism::kCompletionDelay, Mechanism::kNone}) {
      for (size_t size : {size_t{4120}, size_t{65536}}) {
        for (WriterKind writer : {WriterKind::kGit, WriterKind::kFixed, WriterKind::kTrace}) {
          PipelineOptions o = git(c.pump, size, c.platform, m);
          o.writer = writer;
          o.chunk_size = 3000;
          o.trace = {{0, 5}, {0, 8192}, {0.0001, 5}, {0.0001, 70000}, {0.02, 1}};
          SCOPED_TRACE(std::string(kPumpNames.name(c.pump)) + " " + kMechanismNames.name(m) + " " + std::to_string(size));
          PipelineResult r = run(o);
          EXPECT_TRUE(r.conserved);
          uint64_t expected = writer == WriterKind::kTrace ? 78203 : o.transfer_bytes;
          EXPECT_EQ(r.payload_bytes, expected);
          EXPECT_GE(r.bytes, expected);
          if (writer == WriterKind::kGit) {  // framing: 5 bytes per packet plus the flush packet
            EXPECT_GT(r.bytes, expected + 4);
          }
        }
      }
    }
  }
}

TEST(Pipeline, WithMechanismNoneThe64KiBAnd4120PipesGiveTheSameThroughput) {
  // pack-objects slower than the reader: the pipe size cannot matter when nothing sleeps or waits.
  PipelineOptions small = git(Pump::kNuProcessIocp, 4120, Platform::kWindows, Mechanism::kNone);
  small.pack_rate = 16 * kMiB;
  PipelineOptions large = small;
  large.pipe_buffer = 65536;
  double a = mib_s(run(small));
  double b = mib_s(run(large));
  EXPECT_NEAR(a, 16.0, 0.2);
  EXPECT_NEAR(a, b, 0.01 * b);
}

TEST(Pipeline, UnderPollTickThe64KiBPipeSleepsAndThe4120PipeDoesNot) {
  PipelineResult slow = run(git(Pump::kNuProcessIocp, 65536, Platform::kWindows, Mechanism::kPollTick));
  PipelineResult fast = run(git(Pump::kNuProcessIocp, 4120, Platform::kWindows, Mechanism::kPollTick));
  EXPECT_GT(slow.poll_sleeps, 100u);
  EXPECT_LT(mib_s(slow), 3.0);
  EXPECT_LE(fast.poll_sleeps, 2u);
  EXPECT_GT(mib_s(fast), 20.0);
  EXPECT_GT(fast.writer_blocked_s, 0.0);
  EXPECT_DOUBLE_EQ(slow.writer_blocked_s, 0.0);
}

TEST(Pipeline, LinuxIgnoresTheWindowsMechanisms) {
  PipelineResult a = run(git(Pump::kNuProcessEpoll, 65536, Platform::kLinux, Mechanism::kPollTick));
  PipelineResult b = run(git(Pump::kNuProcessEpoll, 65536, Platform::kLinux, Mechanism::kNone));
  EXPECT_EQ(a.poll_sleeps, 0u);
  EXPECT_DOUBLE_EQ(a.duration_s, b.duration_s);
}

TEST(Pipeline, BadParametersAreRejectedWithAClearMessage) {
  PipelineOptions o = git(Pump::kNuProcessEpoll, 65536, Platform::kWindows, Mechanism::kPollTick);
  EXPECT_NE(validate(o).message().find("nuprocess-epoll"), std::string::npos);
  o = git(Pump::kNuProcessIocp, 65536, Platform::kLinux, Mechanism::kPollTick);
  EXPECT_FALSE(validate(o).ok());
  o = git(Pump::kNuProcessIocp, 0, Platform::kWindows, Mechanism::kPollTick);
  EXPECT_NE(validate(o).message().find("pipe_buffer"), std::string::npos);
  o = git(Pump::kNuProcessIocp, 4120, Platform::kWindows, Mechanism::kPollTick);
  o.transfer_bytes = 0;
  EXPECT_NE(validate(o).message().find("transfer_bytes"), std::string::npos);
  o = git(Pump::kJdkBlocking, 4120, Platform::kWindows, Mechanism::kPollTick);
  o.reader.read_size = 0;
  EXPECT_FALSE(validate(o).ok());
  o = git(Pump::kNuProcessIocp, 4120, Platform::kWindows, Mechanism::kPollTick);
  o.writer = WriterKind::kTrace;
  EXPECT_TRUE(validate(o).ok());
  EXPECT_NE(validate_inputs(o).message().find("trace"), std::string::npos);
  o = git(Pump::kNuProcessIocp, 4120, Platform::kWindows, Mechanism::kCompletionDelay);
  o.completion_delay = nullptr;
  EXPECT_NE(validate_inputs(o).message().find("completion_delay"), std::string::npos);
}

TEST(Trace, MalformedOrMissingFilesAreReported) {
  EXPECT_TRUE(parse_trace("# x\ntime_s,bytes\n0,5\n0.001,8192\n", "t").ok());
  EXPECT_NE(parse_trace("0,5\n", "t").status().message().find("header"), std::string::npos);
  EXPECT_NE(parse_trace("time_s,bytes\n0;5\n", "t").status().message().find("t:2"), std::string::npos);
  EXPECT_FALSE(parse_trace("time_s,bytes\n0,0\n", "t").ok());
  EXPECT_FALSE(parse_trace("time_s,bytes\n0.5,1\n0.1,1\n", "t").ok());
  EXPECT_FALSE(parse_trace("time_s,bytes\n", "t").ok());
  EXPECT_FALSE(parse_trace("time_s,bytes\n0,12x\n", "t").ok());
  auto copied = parse_trace("time_s,bytes,copied_s\n0,5,0.000001\n0.5,9,0.5\n", "t");
  ASSERT_TRUE(copied.ok()) << copied.status().message();
  EXPECT_DOUBLE_EQ((*copied)[0].copy_s, 1e-6);
  EXPECT_DOUBLE_EQ((*copied)[1].copy_s, 0);
  EXPECT_FALSE(parse_trace("time_s,bytes,copied_s\n0.5,9,0.4\n", "t").ok());
  EXPECT_FALSE(parse_trace("time_s,bytes,copied_s\n0.5,9\n", "t").ok());
  auto excel = parse_trace("\xEF\xBB\xBFtime_s,bytes\n0,5\n", "t");  // a UTF-8 byte-order mark
  ASSERT_TRUE(excel.ok()) << excel.status().message();
  EXPECT_EQ((*excel)[0].bytes, 5U);
  EXPECT_NE(load_trace("/nonexistent/trace.csv").status().message().find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace perflab::pipe
