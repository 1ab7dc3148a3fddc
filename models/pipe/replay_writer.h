// Writers that write straight into the pipe under study, without git's relay: `fixed` (chunks of
// `chunk_size` every chunk_size / rate seconds) and `trace` (a captured file of real write sizes and times,
// scenarios/pipe/data/*.csv, made by scenarios/pipe/capture_trace.sh). Each write goes out at its scheduled
// time, or as soon as the previous one has finished if the pipe held the writer up.
//
// Trace file: `#` comment lines, a header `time_s,bytes`, then one write per line: seconds since the first
// write (non-decreasing, >= 0) and its size in bytes (> 0). With the header `time_s,bytes,copied_s` a third
// column says when the write's copy was done (>= time_s): the writer then holds the pipe until then
// (Pipe::begin_copy; a Linux pipe's mutex) if the write fits whole, so its bytes appear then.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/pipe/process.h"

namespace perflab::pipe {

struct WriteEvent {
  double at;          // seconds after the writer starts
  size_t bytes;       // > 0
  double copy_s = 0;  // how long the write holds the pipe when it fits whole (0: no time)
};

std::vector<WriteEvent> fixed_schedule(uint64_t total_bytes, size_t chunk_size, double rate);
Result<std::vector<WriteEvent>> load_trace(const std::filesystem::path& file);
Result<std::vector<WriteEvent>> parse_trace(const std::string& text, const std::string& where);

class ReplayWriter : public Process {
 public:
  ReplayWriter(ProcessId id, Pipe& out, std::vector<WriteEvent> events, uint64_t content_seed,
               SpanSink* spans = nullptr);
  Action step(double now) override;
  const std::string& name() const override { return name_; }
  double blocked_s() const { return blocked_s_; }
  const Checksum& checksum() const { return checksum_; }

 private:
  ProcessId id_;
  Pipe& out_;
  std::vector<WriteEvent> events_;
  uint64_t content_seed_;
  SpanSink* spans_;
  std::string name_ = "writer";
  size_t next_ = 0;
  uint64_t offset_ = 0;
  bool started_ = false;
  double start_ = 0;
  bool copying_ = false;  // holding the pipe for the current write's copy
  bool blocked_ = false;
  double blocked_since_ = 0;
  double blocked_s_ = 0;
  Checksum checksum_;
};

}  // namespace perflab::pipe
