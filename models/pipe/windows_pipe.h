// WindowsPipe: a byte-mode pipe with the semantics of Windows' named-pipe file system (NPFS), as ReactOS
// implements it (drivers/filesystems/npfs/: NpWriteDataQueue in writesup.c, NpReadDataQueue in readsup.c).
// Anonymous pipes (CreatePipe) are NPFS pipes too, so git's pack-objects -> upload-pack pipe uses this class.
//
//   write(data):
//     if a read is pending:  copy min(size, read's room) straight into it; the read completes at once
//                            (no timer: NPFS completes the read IRP from the write path)
//     the rest is queued whole, even beyond the quota; if queued bytes > quota the writer waits until
//     the reader has drained the queue back to the quota
//   issue_read(size):        if bytes are queued, take min(size, queued) across queued writes and complete
//                            at once; else the read stays pending until the next write (or close: 0 bytes)
//
// The quota is the size given to CreateNamedPipe/CreatePipe (65,536 in NuProcess 2.0.1, 4,096 + 24 in
// 2.0.2: NuProcess WindowsProcess.java:48 at nuprocess-2.0.1, :49 at nuprocess-2.0.2). Simplification: a
// blocked write completes when the whole queue fits the quota again (NPFS completes it when its own
// unbuffered rest fits); with one writer per pipe the two coincide whenever the queue ends with that write.
//
// H1 (CompletionDelay, optional, overlapped reads only): a read that would complete with fewer bytes than it
// asked for is held until its deadline; meanwhile writes queue as if no read were pending, and the read
// completes at once if they make the writer block (a full pipe). expire() completes it at the deadline.
#pragma once

#include <deque>
#include <optional>

#include "models/pipe/mechanism.h"
#include "models/pipe/pipe.h"

namespace perflab::pipe {

enum class ReadMode { kBlocking, kOverlapped };

class WindowsPipe : public Pipe {
 public:
  // `delay` (H1) may be null; it must outlive the pipe.
  WindowsPipe(size_t quota, Waker& waker, CompletionDelay* delay = nullptr);

  // ReadFile. True: completed at once (take_completed()). False: pending; the reader is woken when it
  // completes, or must call expire() once completion_deadline() has passed.
  bool issue_read(ProcessId reader, size_t size, ReadMode mode, double now);
  bool read_pending() const { return pending_.has_value() && !pending_->completed; }
  bool read_completed() const { return pending_.has_value() && pending_->completed; }
  std::optional<double> completion_deadline() const;
  void expire(double now);
  Bytes take_completed();  // the completed read's bytes (empty: end of stream); no read is outstanding after

  bool write(ProcessId writer, Bytes data, double now) override;
  bool writer_blocked() const override { return blocked_writer_.has_value(); }
  void close_write(double now) override;
  size_t available() const override { return queued_; }
  bool closed() const override { return write_closed_ && queued_ == 0; }
  size_t read_into(uint8_t* buffer, size_t max, double now) override;
  void notify_when_readable(ProcessId reader) override;
  const PipeStats& stats() const override { return stats_; }
  size_t quota() const { return quota_; }

 private:
  struct Entry {
    Bytes data;
    size_t offset = 0;
  };
  struct PendingRead {
    ProcessId reader;
    size_t size;
    ReadMode mode;
    Bytes data;
    bool completed = false;
    std::optional<double> deadline;  // H1: held until then
  };
  void enqueue(Bytes data, size_t from);
  size_t take_from_queue(uint8_t* buffer, size_t max);
  Bytes take_from_queue(size_t max);
  void complete_pending();
  bool delay_applies(size_t got) const;

  size_t quota_;
  Waker& waker_;
  CompletionDelay* delay_;
  std::deque<Entry> queue_;
  size_t queued_ = 0;
  std::optional<ProcessId> blocked_writer_;
  std::optional<ProcessId> readable_waiter_;
  std::optional<PendingRead> pending_;
  bool write_closed_ = false;
  PipeStats stats_;
};

}  // namespace perflab::pipe
