// LinuxPipe: a Linux pipe, a ring of the pipe's size. A blocking write copies what fits and waits for room
// until all of it is in; a reader is told the pipe is readable on the first byte (poll/epoll, level
// triggered) and a read takes up to what it asks of what is there. The size is what F_SETPIPE_SZ sets:
// the request rounded up to a power-of-two number of 4 KiB pages (fs/pipe.c round_pipe_size), so 4,120
// becomes 8,192.
#pragma once

#include <optional>

#include "models/pipe/pipe.h"

namespace perflab::pipe {

class LinuxPipe : public Pipe {
 public:
  LinuxPipe(size_t requested_size, Waker& waker);
  static size_t kernel_size(size_t requested);
  size_t capacity() const { return ring_.size(); }

  bool write(ProcessId writer, Bytes data, double now) override;
  bool writer_blocked() const override { return pending_write_.has_value(); }
  void close_write(double now) override;
  size_t available() const override { return size_; }
  bool closed() const override { return write_closed_ && size_ == 0; }
  Bytes read_now(size_t max, double now) override;
  void notify_when_readable(ProcessId reader) override;
  const PipeStats& stats() const override { return stats_; }

 private:
  struct PendingWrite {
    ProcessId writer;
    Bytes data;
    size_t offset;
  };
  size_t push(const uint8_t* data, size_t size);  // copies what fits; returns bytes copied
  void wake_reader();

  Waker& waker_;
  Bytes ring_;
  size_t head_ = 0;  // next byte to read
  size_t size_ = 0;  // bytes in the ring
  std::optional<PendingWrite> pending_write_;
  std::optional<ProcessId> readable_waiter_;
  bool write_closed_ = false;
  PipeStats stats_;
};

}  // namespace perflab::pipe
