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
//   wake_latency  median over the reads the pump slept for of (epoll_wait returned - the waking write's
//                 copy done): the pump had read all that had been written, so the pipe was empty and the
//                 waking write, if no larger than the pipe, went in whole and became readable at once;
//   read cost     c0 + c1 * bytes from the pump's own times (epoll_wait returned -> read handled): a line
//                 through the median time of the reads of each page count, weighted by their number, plus
//                 the median re-poll (handled -> epoll_wait returned when data was already there) in c0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/pipe/pipeline.h"
#include "models/pipe/real_pump.h"

namespace perflab::pipe {

struct SameRun {
  std::vector<WriteEvent> trace;
  double wake_latency = 0;  // seconds
  double read_c0 = 0;       // seconds per read
  double read_c1 = 0;       // seconds per byte read
  double copy_c0 = 0;       // seconds a write holds the pipe to copy, per write
  double copy_c1 = 0;       // and per byte
  size_t pipe_size = 0;     // what the kernel set
  uint64_t real_reads = 0;
  uint64_t real_bytes = 0;
  size_t wake_samples = 0;  // reads the latency is the median of
};

// Needs a run made with write_recorder and log_reads; an error if its records do not add up.
Result<SameRun> same_run_from(const RealPumpResult& run);

// The simulated Linux epoll pump (NuProcess's 65,536-byte reads) on the run's trace, the pipe the kernel
// set, the measured latency and read cost.
PipelineOptions same_run_options(const SameRun& run);
Result<PipelineResult> replay_same_run(const SameRun& run);

// The trace as a file the `trace` writer reads (replay_writer.h), with `comment` lines first.
std::string same_run_trace_csv(const SameRun& run, const std::vector<std::string>& comment);

}  // namespace perflab::pipe
