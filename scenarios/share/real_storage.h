// The storage-server process of the share study's real engine: n storage servers, server s holding share s
// of the real encoded file (models/share/layout.h: real blocks, real SHA-256 hash trees), each on its own
// shaped loopback link to the downloader (sim/real/shaped_link.h, frame_inbox.h). One single-threaded
// event loop serves them all: each message of calls once its link's delay line lets it through, all its
// calls answered in one reply, stamped with that server's link's bandwidth and latency.
#pragma once

#include <cstdint>
#include <vector>

#include "models/share/layout.h"
#include "sim/sampling/rng.h"
#include "sim/study.h"

namespace perflab::share_study {

// Connects n = file's total shares links to the downloader on 127.0.0.1:`port` and serves until the
// downloader says bye or closes every link; the process's exit status (0: served to the end). Errors go to
// stderr; the downloader reports what it saw of the links' ends. `reply_rngs`: per server, the stream of
// its replies' latency draws.
int run_storage(std::uint16_t port, const share::EncodedFile& file, const NetworkSpec& network,
                std::vector<Rng> reply_rngs);

// Test hook (as prefetch's real_controller.h): PERFLAB_REAL_FAULT="storage-dies-after=N" kills the whole
// storage process (SIGKILL) when it receives its N-th message of calls; "server-dies-after=N" closes the link
// of the first server to receive its N-th message of calls (that server dies, the others serve on).
inline constexpr const char* kFaultVariable = "PERFLAB_REAL_FAULT";

}  // namespace perflab::share_study
