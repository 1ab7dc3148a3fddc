// The git pipeline that writes into the pipe under study: pack-objects -> inner pipe -> upload-pack.
//
// PackObjects produces `total` bytes of pack at `rate`, flushing 8 KiB at a time into the inner pipe (its
// csum-file buffer), waiting while the pipe is full. Windows: CreatePipe(..., 8192) (git v2.28
// compat/mingw.c:1039; Git for Windows v2.31.0.windows.1 compat/mingw.c:1259), an NPFS pipe; Linux: a
// 64 KiB pipe.
//
// UploadPack is create_pack_file's loop (git v2.28 upload-pack.c:344-429) on band 1:
//   loop:
//     poll(pack_objects.out, .err)           Windows: the gnulib emulation, which sleeps to the next tick
//                                            when the pipe is empty (PollTick); Linux: a real poll (:374)
//     relay_pack_data: xread(out, buffer + used, 8193 - used)         (char buffer[8193], :186, :207)
//       EOF -> leave the loop
//       send used - 1 bytes, keep the last one back (:245-251)
//     send_sideband: write "%04x" + band (5 bytes), then write the payload (sideband.c:228-235)
//     relay_cost: the CPU of one iteration (the poll's probes, the read, the two writes), charged after the
//       read and before the writes, so the next poll sees the inner pipe as it is relay_cost after the read
//   after the loop: send the kept byte (:437-440), then the flush packet "0000" (:442-443)
// (v2.31 has the same code 10 lines lower: buffer[8193] at :196, xread at :217.) The relay buffer (8,192) is
// a parameter: git >= 2.35 relays up to 65,515 bytes per packet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/pipe/mechanism.h"
#include "models/pipe/process.h"

namespace perflab::pipe {

struct PackObjectsOptions {
  uint64_t total_bytes = 0;          // pack bytes to produce
  double rate = 48.0 * 1024 * 1024;  // bytes per second
  size_t flush_size = 8192;          // bytes per write (csum-file's buffer)
  uint64_t content_seed = 1;         // which deterministic content
};

struct WriterStats {
  Checksum checksum;  // of every byte written (upload-pack: framing included)
  Checksum payload;   // upload-pack: of the band-1 payload only, to compare with the pack
  uint64_t writes = 0;
  double blocked_s = 0;      // time spent waiting on a full pipe
  uint64_t poll_sleeps = 0;  // upload-pack only
  uint64_t relays = 0;       // upload-pack only: loop iterations that read (the last one reads EOF)
};

class PackObjects : public Process {
 public:
  PackObjects(ProcessId id, Pipe& out, PackObjectsOptions options, SpanSink* spans = nullptr);
  Action step(double now) override;
  const std::string& name() const override { return name_; }
  const WriterStats& stats() const { return stats_; }

 private:
  enum class State { kProduce, kWrite, kBlocked, kDone };
  ProcessId id_;
  Pipe& out_;
  PackObjectsOptions options_;
  SpanSink* spans_;
  std::string name_ = "pack-objects";
  State state_ = State::kProduce;
  uint64_t produced_ = 0;
  size_t next_ = 0;
  double blocked_since_ = 0;
  WriterStats stats_;
};

struct UploadPackOptions {
  size_t relay_buffer = 8192;  // bytes xread per packet (the buffer is one byte larger)
  double relay_cost = 0;       // seconds of upload-pack CPU per iteration (0: the relay is free)
  // Windows' emulated poll (null: a real poll that wakes when data arrives).
  std::optional<PollTick> poll_tick;
};

class UploadPack : public Process {
 public:
  UploadPack(ProcessId id, Pipe& in, Pipe& out, UploadPackOptions options, SpanSink* spans = nullptr);
  Action step(double now) override;
  const std::string& name() const override { return name_; }
  const WriterStats& stats() const { return stats_; }

 private:
  enum class State { kPoll, kSleeping, kRelay, kWriting, kDone };
  struct QueuedWrite {
    Bytes data;
    Checksum checksum;  // of data: the payload's goes into both stats_.payload and stats_.checksum
  };
  void queue_packet(const uint8_t* payload, size_t size);
  void queue_write(Bytes data);
  bool write(QueuedWrite queued, double now);  // false: blocked

  ProcessId id_;
  Pipe& in_;
  Pipe& out_;
  UploadPackOptions options_;
  SpanSink* spans_;
  std::string name_ = "upload-pack";
  State state_ = State::kPoll;
  Bytes buffer_;  // output_state.buffer
  size_t used_ = 0;
  std::vector<QueuedWrite> to_write_;  // the writes of the current packet(s), in order
  size_t next_write_ = 0;
  bool at_eof_ = false;
  double since_ = 0;  // start of the current sleep or blocked write
  bool blocked_ = false;
  WriterStats stats_;
};

}  // namespace perflab::pipe
