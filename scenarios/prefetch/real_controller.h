// The controller process of the prefetch study's real engine: the real PrefetchServer on the real JARs,
// answering the agent over a shaped loopback link (sim/real/shaped_link.h). It serves one request after
// another, each once the link's delay line lets it through, and spends the scenario's
// server_cpu_per_class for each class it loads or scans (the JVM work the model does not do), besides the
// real work of reading the classes and JARs it sends.
#pragma once

#include <cstdint>

#include "scenarios/prefetch/jgit_inputs.h"
#include "sim/sampling/rng.h"
#include "sim/study.h"

namespace perflab::prefetch_study {

// Connects to the agent on 127.0.0.1:`port` and serves until the agent says bye or closes; the process's
// exit status (0: served to the end). Errors go to stderr, which the agent does not read: it reports what
// it saw of the controller's end.
int run_controller(std::uint16_t port, const JGitInputs& inputs, const JobOptions& options,
                   const NetworkSpec& network, Rng latency_rng);

// Test hook: PERFLAB_REAL_FAULT="controller-dies-after=N" makes the controller kill itself (SIGKILL) when
// it receives its N-th request, so tests can see what a run does when its peer dies mid-run.
inline constexpr const char* kFaultVariable = "PERFLAB_REAL_FAULT";

}  // namespace perflab::prefetch_study
