// The two mechanisms as state machines, alone and inside the pipes and processes that use them.
#include "models/pipe/mechanism.h"

#include <gtest/gtest.h>

#include "models/pipe/event_loop.h"
#include "models/pipe/pipeline.h"
#include "models/pipe/windows_pipe.h"
#include "tests/pipe/test_waker.h"

namespace perflab::pipe {
namespace {

constexpr double kTick = 0.015625;

TEST(PollTick, WakesOnTheNextTickBoundaryNotOneMillisecondLater) {
  PollTick tick(kTick, 0.003);
  EXPECT_DOUBLE_EQ(tick.wake_time(0.0035), 0.003 + kTick);
  EXPECT_DOUBLE_EQ(tick.wake_time(0.0), 0.003);
  EXPECT_DOUBLE_EQ(tick.wake_time(0.003 + kTick), 0.003 + 2 * kTick);  // at a boundary: the next one
  PollTick fine(0.001, 0.0);
  EXPECT_NEAR(fine.wake_time(0.0104), 0.011, 1e-12);
}

class SpanRecorder : public SpanSink {
 public:
  void span(const std::string& track, const std::string& name, double start, double end) override {
    spans.push_back({track, name, start, end});
  }
  struct Span {
    std::string track, name;
    double start, end;
  };
  std::vector<Span> spans;
};

TEST(PollTick, UploadPackFindingItsPipeEmptySleepsToTheTickAndRelaysThen) {
  PipelineOptions o;
  o.reader.pump = Pump::kNuProcessIocp;
  o.transfer_bytes = 8192;
  o.pack_rate = 8192 / 0.001;  // the one flush is ready at 1 ms
  o.timer_phase = 0.005;
  o.relay_cost = 0;  // a free relay: the read ends at the tick itself
  SpanRecorder spans;
  EventLoop loop;
  Pipeline pipeline(o, loop, &spans);
  ASSERT_TRUE(loop.run(pipeline.processes()).ok());
  // upload-pack polled at 0 and found its pipe empty; pack-objects wrote at 1 ms, but upload-pack sleeps
  // to the 5 ms tick boundary, so its first relay, and the reader's first completion, are at 5 ms.
  double first_read_end = -1;
  for (const auto& s : spans.spans) {
    if (s.track == "reader") {
      first_read_end = s.end;
      break;
    }
  }
  EXPECT_DOUBLE_EQ(first_read_end, 0.005);
  EXPECT_GE(pipeline.result().poll_sleeps, 1u);
}

TEST(CompletionDelay, DelaysUnlessTheWriterIsBlocked) {
  CompletionDelay delay([] { return 0.002; });
  EXPECT_EQ(delay.deadline(1.0, true), std::nullopt);
  EXPECT_DOUBLE_EQ(delay.deadline(1.0, false).value(), 1.002);
  EXPECT_EQ(delay.delayed(), 1u);
  CompletionDelay off([] { return 0.0; });
  EXPECT_EQ(off.deadline(1.0, false), std::nullopt);
}

TEST(CompletionDelay, PartialReadCollectsWritesUntilTheDeadline) {
  RecordingWaker waker;
  CompletionDelay delay([] { return 0.002; });
  WindowsPipe pipe(65536, waker, &delay);
  EXPECT_FALSE(pipe.issue_read(0, 65536, ReadMode::kOverlapped, 0));
  EXPECT_TRUE(pipe.write(1, bytes_of(5), 0.001));
  EXPECT_TRUE(pipe.read_pending());  // fewer bytes than asked: held
  EXPECT_DOUBLE_EQ(pipe.completion_deadline().value(), 0.003);
  EXPECT_TRUE(pipe.write(1, bytes_of(8192, 5), 0.002));
  pipe.expire(0.0029);
  EXPECT_TRUE(pipe.read_pending());
  pipe.expire(0.003);
  ASSERT_TRUE(pipe.read_completed());
  EXPECT_EQ(pipe.take_completed().size(), 8197u);
}

TEST(CompletionDelay, ReleasedEarlyWhenItsWriterBlocksOnAFullPipe) {
  RecordingWaker waker;
  CompletionDelay delay([] { return 0.010; });
  WindowsPipe pipe(4120, waker, &delay);
  pipe.issue_read(0, 65536, ReadMode::kOverlapped, 0);
  pipe.write(1, bytes_of(5), 0.001);
  EXPECT_TRUE(pipe.read_pending());
  // 8,197 queued > 4,120: the writer would block, so the held read completes now and drains the pipe.
  EXPECT_TRUE(pipe.write(1, bytes_of(8192, 5), 0.001));
  ASSERT_TRUE(pipe.read_completed());
  EXPECT_TRUE(waker.was_woken(0));
  EXPECT_EQ(pipe.take_completed().size(), 8197u);
  EXPECT_FALSE(pipe.writer_blocked());
}

TEST(CompletionDelay, ReadAfterTheWriterClosedIsNotHeld) {
  RecordingWaker waker;
  CompletionDelay delay([] { return 0.100; });
  WindowsPipe pipe(4120, waker, &delay);
  pipe.write(1, bytes_of(10), 0);
  pipe.close_write(0);
  EXPECT_TRUE(pipe.issue_read(0, 65536, ReadMode::kOverlapped, 0));
  EXPECT_EQ(pipe.take_completed().size(), 10u);
  EXPECT_EQ(delay.delayed(), 0u);
}

TEST(CompletionDelay, BlockingReadsAreNeverDelayed) {
  RecordingWaker waker;
  CompletionDelay delay([] { return 0.010; });
  WindowsPipe pipe(65536, waker, &delay);
  pipe.issue_read(0, 8192, ReadMode::kBlocking, 0);
  pipe.write(1, bytes_of(5), 0.001);
  EXPECT_TRUE(pipe.read_completed());
  EXPECT_EQ(delay.delayed(), 0u);
}

}  // namespace
}  // namespace perflab::pipe
