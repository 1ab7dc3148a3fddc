// LinuxPipe: a Linux pipe as fs/pipe.c keeps it: a ring of page-sized slots, not of bytes. Citations are to
// the torvalds/linux fs/pipe.c the study read (see scenarios/pipe/NOTES.md, "The Linux pipe").
//
//   size:   F_SETPIPE_SZ rounds the request up to a power of two of at least a page (round_pipe_size), so
//           4,120 becomes 8,192; the ring has size / 4,096 slots (max_usage).
//   write:  one syscall holds the pipe's mutex while it copies (pipe_write :454-:586), so a reader sees a
//           write whole, or, if the ring fills, the part copied when the writer goes to sleep. If the pipe
//           is not empty, the write's first (size mod 4,096) bytes are merged into the last slot when they
//           fit behind its bytes (:471-:494); the rest goes page by page into new slots (:505-:550). A
//           5-byte write thus takes a slot of its own in an empty pipe, and an 8,192-byte write two new ones.
//   full:   the ring is full when every slot is in use, however few bytes they hold (pipe_full). The writer
//           wakes the reader if the pipe was empty when the write began (:575), sleeps until a read frees
//           a slot, then copies on (:578-:582).
//   wake:   at the end of a write the reader is woken if the pipe was empty or the reader polls with epoll
//           (`poll_usage`, set by pipe_poll; :600); an epoll reader (NuProcess, the real pump) is woken by
//           every write.
//   read:   takes up to what it asks across slots, freeing each emptied slot (pipe_read :303-:350), and wakes
//           the writer only if the ring was full before a slot was freed (:342, :401).
//
// The copy itself takes no simulated time unless the writer asks to hold the pipe for it (begin_copy): a
// replayed real write holds the mutex for the time the real syscall took, so a reader that comes meanwhile
// waits and then sees the whole write, as in the kernel.
#pragma once

#include <deque>
#include <optional>

#include "models/pipe/pipe.h"

namespace perflab::pipe {

class LinuxPipe : public Pipe {
 public:
  static constexpr size_t kPageSize = 4096;

  LinuxPipe(size_t requested_size, Waker& waker);
  static size_t kernel_size(size_t requested);
  size_t capacity() const { return slot_limit_ * kPageSize; }
  size_t slots_in_use() const { return slots_.size(); }
  // Whether a write of `size` bytes would go in whole now (merge rule and free slots).
  bool fits(size_t size) const;

  bool write(ProcessId writer, Bytes data, double now) override;
  bool writer_blocked() const override { return pending_write_.has_value(); }
  void close_write(double now) override;
  // What a read would get now: nothing while a writer holds the mutex.
  size_t available() const override { return locked_ ? 0 : size_; }
  bool closed() const override { return write_closed_ && size_ == 0; }
  size_t read_into(uint8_t* buffer, size_t max, double now) override;
  void notify_when_readable(ProcessId reader) override;
  const PipeStats& stats() const override { return stats_; }

  // A writer about to copy `size` bytes takes the mutex for the copy if the write fits whole (true); it
  // then calls write() and end_copy(). A write that does not fit copies what fits at once instead.
  bool begin_copy(size_t size) override;
  void end_copy(double now) override;

 private:
  struct Slot {
    Bytes page;  // kPageSize bytes
    size_t offset = 0;
    size_t len = 0;
  };
  struct PendingWrite {
    ProcessId writer;
    Bytes data;
    size_t offset;
  };
  // pipe_write's first step in a non-empty pipe: the write's first (size mod 4,096) bytes into the last
  // slot if they fit behind its bytes; returns how many went in.
  size_t merge_into_last(const Bytes& data);
  // Then data[from, size) page by page into free slots; returns the new offset.
  size_t copy_pages(const Bytes& data, size_t from);
  bool full() const { return slots_.size() >= slot_limit_; }
  void wake_reader();

  Waker& waker_;
  size_t slot_limit_;
  std::deque<Slot> slots_;
  size_t size_ = 0;  // bytes in the ring
  std::optional<PendingWrite> pending_write_;
  std::optional<ProcessId> readable_waiter_;
  bool poll_usage_ = false;  // a reader has polled (epoll): every write wakes it
  bool locked_ = false;      // a writer holds the mutex for its copy
  bool write_closed_ = false;
  PipeStats stats_;
};

}  // namespace perflab::pipe
