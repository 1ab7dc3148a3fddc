// The readers (pumps) at the end of the pipe under study, selected by the `pump` parameter.
//
// nuprocess-iocp (NuProcess on Windows, ProcessCompletions.java at nuprocess-2.0.2): one outstanding
//   overlapped ReadFile of buffer.remaining() bytes (queueRead :271, the ReadFile :278), BUFFER_CAPACITY =
//   65,536 (NuProcess.java:43) - what the handler left unconsumed; the handler here consumes everything, so
//   every read asks for 65,536. On each completion from GetQueuedCompletionStatus (:140): readStdout (the
//   handler, then compact, WindowsProcess.java:331, :352), then queueRead at once (:164-165). A 0-byte
//   completion ends it. (Same lines at nuprocess-2.0.1 in ProcessCompletions.java.)
// jdk-blocking (ProcessBuilder): blocking reads of `read_size` (8 KiB: BufferedInputStream), same handler.
// nuprocess-epoll (NuProcess on Linux, BasePosixProcess.java:329 at nuprocess-2.0.2): level-triggered
//   readiness, then read(min(available, 65,536)) (:343); on Linux a jdk-blocking read waits for the first
//   byte the same way. A reader that had to sleep reads `wake_latency` after the pipe woke it, and takes
//   what is there then; one that finds data when it polls again reads at once. Given a `wake_series` (a
//   replayed run's own wake-ups and off-CPU stretches, wake_series.h) it looks its delay up there at its
//   own time instead, and its handler's CPU time skips the stretches the real pump was off its CPU.
//
// The handler cost, c0 + c1 * bytes per completed read, is the study's one calibrated constant.
#pragma once

#include "models/common/enum_names.h"
#include "models/common/status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "models/pipe/linux_pipe.h"
#include "models/pipe/process.h"
#include "models/pipe/wake_series.h"
#include "models/pipe/windows_pipe.h"

namespace perflab::pipe {

enum class Pump { kNuProcessIocp, kJdkBlocking, kNuProcessEpoll };
inline const EnumNames<Pump> kPumpNames{"pump",
                                        {{Pump::kNuProcessIocp, "nuprocess-iocp"},
                                         {Pump::kJdkBlocking, "jdk-blocking"},
                                         {Pump::kNuProcessEpoll, "nuprocess-epoll"}}};

constexpr size_t kNuProcessBufferCapacity = 65536;

struct ReaderOptions {
  Pump pump = Pump::kNuProcessIocp;
  size_t read_size = 8192;     // jdk-blocking only: bytes per blocking read
  double handler_c0 = 220e-6;  // seconds per completed read
  double handler_c1 = 1e-9;    // seconds per byte of a completed read
  double wake_latency = 0;     // Linux: seconds from a wake on a readable pipe to the read (a measured
                               // machine property: the woken thread must be scheduled on its CPU)
  std::shared_ptr<const WakeSeries> wake_series;  // Linux, a replay: the run's own wake-ups (null: none)
};

struct ReaderStats {
  uint64_t reads = 0;          // completed reads that returned bytes
  Checksum checksum;           // of every byte read, in order
  double last_handled_at = 0;  // the handler of the last read that returned bytes done
  double finished_at = 0;
};

class Reader : public Process {
 public:
  Reader(ProcessId id, ReaderOptions options, SpanSink* spans);
  const std::string& name() const override { return name_; }
  const ReaderStats& stats() const { return stats_; }

 protected:
  Action handle(const Bytes& data, double issued,
                double now);  // a completed read: EOF, or the handler's cost
  size_t read_size() const;
  ProcessId id_;
  ReaderOptions options_;
  SpanSink* spans_;
  std::string name_ = "reader";
  ReaderStats stats_;
};

// ReadFile on a Windows pipe: overlapped (IOCP) or blocking; the read is pending until a write completes it.
class WindowsReader : public Reader {
 public:
  WindowsReader(ProcessId id, WindowsPipe& pipe, ReaderOptions options, SpanSink* spans = nullptr);
  Action step(double now) override;

 private:
  WindowsPipe& pipe_;
  bool outstanding_ = false;
  double issued_ = 0;
};

// Readiness, then read: epoll on Linux (or a blocking read, which waits for the first byte the same way).
class LinuxReader : public Reader {
 public:
  LinuxReader(ProcessId id, LinuxPipe& pipe, ReaderOptions options, SpanSink* spans = nullptr);
  Action step(double now) override;

 private:
  LinuxPipe& pipe_;
  bool waiting_ = false;
  double since_ = 0;
  bool slept_ = false;  // waited for the pipe since the last read
  bool latency_paid_ = false;
};

}  // namespace perflab::pipe
