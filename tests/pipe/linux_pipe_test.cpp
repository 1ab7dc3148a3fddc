// LinuxPipe against fs/pipe.c's rules: size rounding, page slots and the merge of a write's remainder,
// partial writes that wait for a freed slot, the writer's mutex during a held copy, and the Linux reader's
// wake latency.
#include "models/pipe/linux_pipe.h"

#include <gtest/gtest.h>

#include "tests/pipe/run_to_end.h"
#include "tests/pipe/test_waker.h"

namespace perflab::pipe {
namespace {

TEST(LinuxPipe, SizeRoundedLikeFSetPipeSz) {
  EXPECT_EQ(LinuxPipe::kernel_size(4120), 8192u);
  EXPECT_EQ(LinuxPipe::kernel_size(1), 4096u);
  EXPECT_EQ(LinuxPipe::kernel_size(16384), 16384u);
  EXPECT_EQ(LinuxPipe::kernel_size(65536), 65536u);
  EXPECT_EQ(LinuxPipe::kernel_size(65537), 131072u);
}

TEST(LinuxPipe, WriteCopiesWhatFitsAndFinishesAsTheReaderMakesRoom) {
  RecordingWaker waker;
  LinuxPipe pipe(4096, waker);
  pipe.notify_when_readable(0);
  EXPECT_FALSE(pipe.write(1, bytes_of(10000), 0));
  EXPECT_TRUE(waker.was_woken(0));  // readable on the first byte
  EXPECT_EQ(pipe.available(), 4096u);
  Bytes got = pipe.read_now(65536, 0);
  const Bytes all = bytes_of(10000);
  EXPECT_EQ(got, Bytes(all.begin(), all.begin() + 4096));
  EXPECT_TRUE(pipe.writer_blocked());
  pipe.read_now(65536, 0);
  EXPECT_FALSE(pipe.writer_blocked());  // the last 1,808 bytes fitted
  EXPECT_TRUE(waker.was_woken(1));
  EXPECT_EQ(pipe.read_now(65536, 0).size(), 10000u - 8192u);
  pipe.close_write(0);
  EXPECT_TRUE(pipe.closed());
}

TEST(LinuxPipe, SlotsNotBytesFillTheRing) {
  RecordingWaker waker;
  LinuxPipe pipe(16384, waker);  // 4 slots
  EXPECT_TRUE(pipe.write(1, bytes_of(5), 0));
  EXPECT_EQ(pipe.slots_in_use(), 1u);
  EXPECT_TRUE(pipe.write(1, bytes_of(8192), 0));  // 8,192 mod 4,096 = 0: nothing to merge, two new slots
  EXPECT_EQ(pipe.slots_in_use(), 3u);
  EXPECT_TRUE(pipe.write(1, bytes_of(5), 0));  // the last slot is a full page: a slot of its own
  EXPECT_EQ(pipe.slots_in_use(), 4u);
  EXPECT_EQ(pipe.available(), 8202u);
  EXPECT_TRUE(pipe.fits(4091));  // merges behind the last 5 bytes
  EXPECT_FALSE(pipe.fits(4092));
  EXPECT_FALSE(pipe.write(1, bytes_of(4096), 0));  // a page to itself: full at 8,202 of 16,384 bytes
  EXPECT_TRUE(pipe.writer_blocked());
}

TEST(LinuxPipe, AWritesRemainderMergesBehindTheLastSlotsBytes) {
  RecordingWaker waker;
  LinuxPipe pipe(8192, waker);  // 2 slots
  EXPECT_TRUE(pipe.write(1, bytes_of(5), 0));
  // 12,041 mod 4,096 = 3,849 bytes go behind the 5, then 8,192 need two slots: one is free.
  EXPECT_FALSE(pipe.write(1, bytes_of(12041), 0));
  EXPECT_EQ(pipe.slots_in_use(), 2u);
  EXPECT_EQ(pipe.available(), 5u + 3849u + 4096u);
}

TEST(LinuxPipe, OnlyAReadThatFreesASlotWakesTheWriter) {
  RecordingWaker waker;
  LinuxPipe pipe(4096, waker);
  EXPECT_FALSE(pipe.write(1, bytes_of(10000), 0));
  EXPECT_EQ(pipe.read_now(100, 0).size(), 100u);  // the slot still holds 3,996 bytes
  EXPECT_EQ(pipe.available(), 3996u);
  EXPECT_TRUE(pipe.writer_blocked());
  EXPECT_EQ(pipe.read_now(65536, 0).size(), 3996u);  // freed: the writer copies its next page
  EXPECT_EQ(pipe.available(), 4096u);
  EXPECT_TRUE(pipe.writer_blocked());
  EXPECT_FALSE(waker.was_woken(1));
}

TEST(LinuxPipe, AHeldCopyIsSeenWholeWhenItEnds) {
  RecordingWaker waker;
  LinuxPipe pipe(65536, waker);
  pipe.notify_when_readable(0);
  ASSERT_TRUE(pipe.begin_copy(20000));
  EXPECT_TRUE(pipe.write(1, bytes_of(20000), 0));
  EXPECT_EQ(pipe.available(), 0u);  // the writer holds the mutex
  EXPECT_TRUE(pipe.read_now(65536, 0).empty());
  EXPECT_FALSE(waker.was_woken(0));
  pipe.end_copy(0);
  EXPECT_TRUE(waker.was_woken(0));
  EXPECT_EQ(pipe.read_now(65536, 0).size(), 20000u);
  EXPECT_FALSE(pipe.begin_copy(65537));  // does not fit whole: copied at once instead
}

// A 5-byte header and its payload 1 us apart: a reader that reacts at once reads the header alone; one that
// is scheduled 3 us after the wake finds both.
TEST(LinuxReader, AWokenReaderReadsWhatIsThereAfterItsWakeLatency) {
  PipelineOptions o;
  o.platform = Platform::kLinux;
  o.mechanism = Mechanism::kNone;
  o.reader.pump = Pump::kNuProcessEpoll;
  o.reader.handler_c0 = 1e-6;
  o.reader.handler_c1 = 0;
  o.writer = WriterKind::kTrace;
  o.trace = {{0, 5}, {1e-6, 12000}, {1e-3, 5}, {1e-3 + 1e-6, 12000}};
  EXPECT_EQ(run(o).reads, 4u);
  o.reader.wake_latency = 3e-6;
  PipelineResult r = run(o);
  EXPECT_EQ(r.reads, 2u);
  EXPECT_TRUE(r.conserved);
}

}  // namespace
}  // namespace perflab::pipe
