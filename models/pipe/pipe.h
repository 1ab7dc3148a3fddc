// What the simulated processes see of a pipe, whatever the platform.
// A pipe never blocks anybody itself: an operation that would block returns false and the pipe later calls
// Waker::wake(process) when the process can go on. The scheduler (a SimGrid actor per process in the
// driver, EventLoop in the tests) turns that into waiting in simulated time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "models/pipe/bytes.h"

namespace perflab::pipe {

using ProcessId = int;

class Waker {
 public:
  virtual ~Waker() = default;
  virtual void wake(ProcessId process) = 0;
};

struct PipeStats {
  uint64_t bytes_written = 0;
  uint64_t bytes_read = 0;
  uint64_t writes = 0;
  uint64_t blocked_writes = 0;  // writes whose writer had to wait
};

class Pipe {
 public:
  virtual ~Pipe() = default;

  // Writer side (one writer per pipe). True: the write is complete. False: the writer waits until woken,
  // then writer_blocked() is false.
  virtual bool write(ProcessId writer, Bytes data, double now) = 0;
  virtual bool writer_blocked() const = 0;
  virtual void close_write(double now) = 0;
  // A writer that models how long its copy takes asks to hold the pipe for it: true (Linux, the write fits
  // whole) means readers see nothing new until end_copy(), after the write(). False: write at once.
  virtual bool begin_copy(size_t /*size*/) { return false; }
  virtual void end_copy(double /*now*/) {}

  // Reader side: what a poll/peek sees, and a read that never waits: up to `max` of what is there, into the
  // reader's buffer (returns how many bytes; 0 once closed()), or as new bytes.
  virtual size_t available() const = 0;
  virtual bool closed() const = 0;  // the writer closed and everything written has been read
  virtual size_t read_into(uint8_t* buffer, size_t max, double now) = 0;
  Bytes read_now(size_t max, double now) {
    Bytes out(std::min(max, available()));
    out.resize(read_into(out.data(), out.size(), now));
    return out;
  }
  // Wakes `reader` once when available() > 0 or the pipe is closed (now, if that is already so).
  virtual void notify_when_readable(ProcessId reader) = 0;

  virtual const PipeStats& stats() const = 0;
};

}  // namespace perflab::pipe
