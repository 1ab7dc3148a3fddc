// The real Linux pump: NuProcess's epoll loop on a real child process, the control experiment of the study.
// It starts the child (posix_spawn) with stdout on a pipe sized with F_SETPIPE_SZ (the kernel rounds the
// request up; the size it set is reported), waits for readiness with level-triggered epoll and reads up to
// 65,536 bytes per wake (BasePosixProcess.readStdout), checksumming every byte, until end of stream; then
// reaps the child and reports how it ended. A deadline bounds the whole run: a child that outlives it is
// killed and the run fails, so a stuck child is reported, never hung on.
#pragma once

#include <cstdint>
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
  std::string head;  // the first bytes read (up to 16), e.g. "PACK" for a pack
};

Result<RealPumpResult> run_real_pump(const RealPumpOptions& options);

}  // namespace perflab::pipe
