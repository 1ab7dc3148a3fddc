// NPFS rules of WindowsPipe on hand-made sequences of reads and writes.
#include "models/pipe/windows_pipe.h"

#include <gtest/gtest.h>

#include "tests/pipe/test_waker.h"

namespace perflab::pipe {
namespace {

constexpr ProcessId kReader = 0;
constexpr ProcessId kWriter = 1;

TEST(WindowsPipe, PendingReadTakesAWriteAtOnceAndOnlyThatWrite) {
  RecordingWaker waker;
  WindowsPipe pipe(4120, waker);
  EXPECT_FALSE(pipe.issue_read(kReader, 65536, ReadMode::kOverlapped, 0));
  EXPECT_TRUE(pipe.read_pending());
  EXPECT_TRUE(pipe.write(kWriter, bytes_of(5), 1.0));  // the 5-byte side-band header
  EXPECT_TRUE(pipe.read_completed());
  EXPECT_TRUE(waker.was_woken(kReader));
  EXPECT_EQ(pipe.take_completed(), bytes_of(5));
  // The payload that follows is queued: no read is pending any more.
  EXPECT_TRUE(pipe.write(kWriter, bytes_of(100), 1.0));
  EXPECT_EQ(pipe.available(), 100u);
}

TEST(WindowsPipe, WriteLargerThanThePendingReadCompletesItAndQueuesTheRest) {
  RecordingWaker waker;
  WindowsPipe pipe(4120, waker);
  pipe.issue_read(kReader, 10, ReadMode::kBlocking, 0);
  EXPECT_TRUE(pipe.write(kWriter, bytes_of(30), 0));
  EXPECT_EQ(pipe.take_completed(), bytes_of(10));
  EXPECT_EQ(pipe.available(), 20u);
}

TEST(WindowsPipe, WriteBeyondTheQuotaIsQueuedWholeAndBlocksItsWriterUntilDrained) {
  RecordingWaker waker;
  WindowsPipe pipe(4120, waker);
  EXPECT_TRUE(pipe.write(kWriter, bytes_of(5), 0));
  EXPECT_FALSE(pipe.write(kWriter, bytes_of(8192, 5), 0));  // 8,197 queued > 4,120
  EXPECT_TRUE(pipe.writer_blocked());
  EXPECT_EQ(pipe.available(), 8197u);               // queued whole: the reader can take all of it
  EXPECT_EQ(pipe.read_now(4000, 0).size(), 4000u);  // 4,197 left: still above the quota
  EXPECT_TRUE(pipe.writer_blocked());
  EXPECT_FALSE(waker.was_woken(kWriter));
  EXPECT_EQ(pipe.read_now(77, 0).size(), 77u);  // 4,120 left: fits the quota, the write completes
  EXPECT_FALSE(pipe.writer_blocked());
  EXPECT_TRUE(waker.was_woken(kWriter));
}

TEST(WindowsPipe, ReadDrainsAcrossQueuedWritesInOrder) {
  RecordingWaker waker;
  WindowsPipe pipe(65536, waker);
  pipe.write(kWriter, bytes_of(5, 0), 0);
  pipe.write(kWriter, bytes_of(8192, 5), 0);
  pipe.write(kWriter, bytes_of(5, 197), 0);
  EXPECT_TRUE(pipe.issue_read(kReader, 65536, ReadMode::kOverlapped, 0));  // data queued: at once
  Bytes got = pipe.take_completed();
  Bytes expected = bytes_of(5, 0);
  Bytes middle = bytes_of(8192, 5);
  Bytes last = bytes_of(5, 197);
  expected.insert(expected.end(), middle.begin(), middle.end());
  expected.insert(expected.end(), last.begin(), last.end());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(pipe.available(), 0u);
}

TEST(WindowsPipe, CloseCompletesAPendingReadWithZeroBytes) {
  RecordingWaker waker;
  WindowsPipe pipe(4120, waker);
  pipe.issue_read(kReader, 65536, ReadMode::kOverlapped, 0);
  pipe.close_write(2);
  EXPECT_TRUE(pipe.read_completed());
  EXPECT_TRUE(pipe.take_completed().empty());
  EXPECT_TRUE(pipe.closed());
}

TEST(WindowsPipe, ReadableNotificationOnFirstQueuedByte) {
  RecordingWaker waker;
  WindowsPipe pipe(8192, waker);
  pipe.notify_when_readable(kReader);
  EXPECT_FALSE(waker.was_woken(kReader));
  pipe.write(kWriter, bytes_of(1), 0);
  EXPECT_TRUE(waker.was_woken(kReader));
}

}  // namespace
}  // namespace perflab::pipe
