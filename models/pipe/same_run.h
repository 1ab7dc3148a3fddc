// The Linux pipe model against the kernel on one and the same run: a real pump run whose child's writes were
// recorded (real_pump.h, write_recorder.cpp) is turned into the model's inputs, replayed into the simulated
// Linux pump with the pipe size the kernel set, and its reads set beside the kernel's.
//
// From the run, nothing fitted to the reads:
//   trace         the child's writes on stdout: start (seconds since the first), bytes, and how long the
//                 write holds the pipe's mutex to copy when it fits whole (LinuxPipe): the syscall's time,
//                 but at most copy_c0 + copy_c1 * bytes, the lowest deciles of the run's own write times
//                 (one-page writes for c0; the rest per byte for c1). A syscall that woke a sleeping reader
//                 took longer: the wake-up comes after the copy, the mutex released (fs/pipe.c :586, :600).
//                 Bytes the pump read that no record accounts for (written without libc's write, or
//                 before the recorder was loaded) are one write when the pump first became ready.
//   wake-ups      over the reads the pump slept for, (epoll_wait returned - the waking write's copy done):
//                 the pump had read every byte whose copy was done (counted in bytes, not by the writes'
//                 returns: a writer that woke the pump is often preempted by it inside the syscall), so the
//                 pipe was empty and the waking write, the one holding the first unread byte, if no larger
//                 than the pipe, went in whole and became readable at once. Kept as a series
//                 (when each happened, wake_series.h) and as its median (`wake_latency`, the older model);
//   read cost     c0 + c1 * bytes from the pump's own times (epoll_wait returned -> read handled): a line
//                 through the median time of the reads of each page count, weighted by their number, plus
//                 the median re-poll (handled -> epoll_wait returned when data was already there) in c0.
//                 The replay uses a calibrated cost instead when it is given (ReaderCost, measured on runs
//                 outside the validation grid: `perflab calibrate pipe`);
//   off CPU       each read's time beyond that cost (from the re-poll when data was there, else from
//                 epoll_wait returned, to handled): a stretch the pump was off its CPU, at the read's start.
//   time          from the first write's start to the pump's last read handled: the stretch the replay's
//                 time is compared over, the same event at both ends in both engines (first byte written,
//                 last byte handled) and the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/pipe/pipeline.h"
#include "models/pipe/real_pump.h"
#include "models/pipe/wake_series.h"

namespace perflab::pipe {

// The reader's cost per read: calibrated (>= 0) or, when negative, measured in the run itself.
struct ReaderCost {
  double c0 = -1;  // seconds per read
  double c1 = -1;  // seconds per byte read
};

// How the replay's reader pays its wake-ups: the run's series at its own time, or the run's median.
enum class WakeModel { kSeries, kMedian };

struct SameRun {
  std::vector<WriteEvent> trace;
  double wake_latency = 0;  // seconds: the median wake-up
  std::vector<WakeUp> wake_ups;
  std::vector<OffCpu> off_cpu;
  double read_c0 = 0;           // seconds per read, as the replay uses it (calibrated or measured)
  double read_c1 = 0;           // seconds per byte read
  double measured_read_c0 = 0;  // the run's own line, whatever the replay uses
  double measured_read_c1 = 0;
  double real_seconds = 0;  // first write started -> last read handled
  double copy_c0 = 0;       // seconds a write holds the pipe to copy, per write
  double copy_c1 = 0;       // and per byte
  size_t pipe_size = 0;     // what the kernel set
  uint64_t real_reads = 0;
  uint64_t real_bytes = 0;
  size_t wake_samples = 0;  // reads the latency is the median of
};

// Needs a run made with write_recorder and log_reads; an error if its records do not add up.
Result<SameRun> same_run_from(const RealPumpResult& run, ReaderCost cost = {});

// The simulated Linux epoll pump (NuProcess's 65,536-byte reads) on the run's trace, the pipe the kernel
// set, the run's wake-ups and the read cost.
PipelineOptions same_run_options(const SameRun& run, WakeModel wake = WakeModel::kSeries);
Result<PipelineResult> replay_same_run(const SameRun& run, WakeModel wake = WakeModel::kSeries);

// The trace as a file the `trace` writer reads (replay_writer.h), with `comment` lines first.
std::string same_run_trace_csv(const SameRun& run, const std::vector<std::string>& comment);

}  // namespace perflab::pipe
