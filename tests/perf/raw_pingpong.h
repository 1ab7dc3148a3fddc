// The baseline of harness_bench: a request/reply ping-pong written directly against SimGrid's s4u API,
// with no scenario, study, runner or SimGridWorld in between.
#pragma once

#include <cstdint>

namespace perflab::perf {

struct PingpongShape {
  int64_t exchanges = 20000;
  double request_bytes = 1024;
  double reply_bytes = 1024;
  double latency_s = 0.020;  // one-way
  double bandwidth = 100e6;  // bytes per second
};

// Creates the engine and the two-host platform, runs the exchanges; returns the simulated end time.
// Call it once per process (in a forked child): SimGrid cannot re-create its engine.
double run_raw_pingpong(const PingpongShape& shape);

}  // namespace perflab::perf
