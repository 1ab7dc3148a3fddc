// LinuxPipe: kernel size rounding, partial writes that wait for room, readiness on the first byte.
#include "models/pipe/linux_pipe.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace perflab::pipe
