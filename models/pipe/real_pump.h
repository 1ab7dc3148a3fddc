// The real Linux pump: NuProcess's epoll loop on a real child process, the control experiment of the study.
// It starts the child (posix_spawn) with stdout on a pipe sized with F_SETPIPE_SZ (the kernel rounds the
// request up; the size it set is reported), waits for readiness with level-triggered epoll and reads up to
// 65,536 bytes per wake (BasePosixProcess.readStdout), checksumming every byte, until end of stream; then
// reaps the child and reports how it ended. A deadline bounds the whole run: a child that outlives it is
// killed and the run fails, so a stuck child is reported, never hung on; so can a caller's `stop`.
// CPU: once the child has exited it is left a zombie (waitid WNOWAIT) while its own CPU time is read from
// /proc/PID/schedstat (nanoseconds on the CPU, its main thread: git upload-pack has no other), then reaped
// with wait4, whose rusage adds the children it waited for (upload-pack's pack-objects). Side band:
// optionally the stream is parsed as pkt-lines (4 hex digits of length, a band byte), counting the band-1
// packets, so CPU per relayed packet can be reported.
// Same-run trace: optionally the child runs with perflab_write_recorder preloaded (write_recorder.cpp),
// which records when each of its writes on stdout started and returned, and the pump logs when each of its
// reads became ready, returned and was handled, all on CLOCK_MONOTONIC from the spawn: the run's own write
// trace, to replay into the model beside the reads the kernel gave.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/pipe/bytes.h"

namespace perflab::pipe {

struct RealPumpOptions {
  std::vector<std::string> argv;  // the child: argv[0] is looked up in PATH
  std::string stdin_data;         // written to the child's stdin (at most 64 KiB), which is then closed
  size_t pipe_size = 65536;       // asked with F_SETPIPE_SZ
  size_t read_size = 65536;       // bytes per read
  double timeout_s = 60;          // the whole run, child included
  bool side_band = false;         // parse the stream as side-band pkt-lines (upload-pack's output)
  std::string write_recorder;     // path of perflab_write_recorder to preload; empty: no write trace
  bool log_reads = false;         // keep a PumpRead per read
  std::string stderr_file;        // the child's stderr goes to this file (made or emptied); empty: /dev/null
  // The child leads a process group of its own, and a child stopped (timeout, `stop`) is killed with all
  // of that group: the processes it started too. Its stdin is a pipe, so it never reads the terminal.
  bool own_process_group = false;
  // Polled at least every 100 ms while the child runs: true stops the run (the child is killed) and it
  // fails with "stopped". E.g. InterruptGuard::interrupted.
  std::function<bool()> stop;
};

struct ChildWrite {  // one write(2) of the child on its stdout, seconds from the spawn
  double start_s;
  double end_s;
  int64_t result;  // bytes written, or -errno
};

struct PumpRead {    // one read that returned data, seconds from the spawn
  double ready_s;    // epoll_wait returned
  double done_s;     // read returned
  double handled_s;  // checksum (and side-band count) done: the pump goes back to epoll_wait
  uint64_t bytes;
};

struct RealPumpResult {
  uint64_t bytes = 0;
  Checksum checksum;
  uint64_t reads = 0;
  size_t pipe_size = 0;  // what the kernel set (F_GETPIPE_SZ)
  double seconds = 0;    // from spawn to end of stream
  bool exited = false;   // the child called exit; else it was killed by `signal`
  int exit_status = -1;
  int signal = 0;
  std::string head;                // the first bytes read (up to 16), e.g. "PACK" for a pack
  double child_cpu_s = -1;         // the child's own CPU (schedstat); -1 if /proc did not say
  double descendants_cpu_s = -1;   // user + system CPU of the children it waited for (rusage minus own)
  uint64_t band1_packets = 0;      // side_band: pkt-lines on band 1 (pack data)
  uint64_t band1_bytes = 0;        // side_band: their payload bytes
  std::vector<ChildWrite> writes;  // write_recorder: the child's writes on stdout, in order
  uint64_t unrecorded_bytes = 0;   // write_recorder: bytes read that no recorded write accounts for
  uint64_t dropped_writes = 0;     // write_recorder: writes beyond what it can keep
  std::vector<PumpRead> read_log;  // log_reads
};

// Counts side-band pkt-lines in a stream fed in arbitrary pieces (pkt-line.c: 4 hex digits of length
// including themselves, "0000" a flush, then for a side-band packet one band byte).
class SideBandCounter {
 public:
  void add(const uint8_t* data, size_t size);
  uint64_t band1_packets() const { return packets_; }
  uint64_t band1_bytes() const { return bytes_; }
  bool malformed() const { return malformed_; }

 private:
  char length_[4] = {};
  size_t have_length_ = 0;
  size_t left_ = 0;  // bytes of the current packet still to come, band byte included
  bool want_band_ = false;
  bool band1_ = false;
  uint64_t packets_ = 0;
  uint64_t bytes_ = 0;
  bool malformed_ = false;
};

Result<RealPumpResult> run_real_pump(const RealPumpOptions& options);

// The perflab_write_recorder built with this tree, or "" if it is not there.
std::string built_write_recorder();

}  // namespace perflab::pipe
