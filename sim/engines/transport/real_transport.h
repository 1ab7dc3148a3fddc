// The real engine's transport (transport.h): the hub is this process, every node it spawns a forked
// process (sim/engines/real/peer_process.h: it dies with its parent) connected to the hub over a loopback socket
// (127.0.0.1 only) shaped like [network] (sim/engines/real/shaped_link.h). A node receives through a FrameInbox
// (every frame due at one instant in one batch), sleeps on absolute deadlines (DeadlineSleeper) and
// burns real CPU for compute(). Every wait is bounded: a silent peer is an error after an idle timeout.
//
// Test hook: PERFLAB_REAL_FAULT="<node>-dies-after=N" makes the spawned node named <node> kill itself
// (SIGKILL) when it receives its N-th message, so tests can see what a run does when a peer dies.
#pragma once

#include <functional>
#include <string>

#include "sim/engines/real/deadline_sleeper.h"
#include "sim/study/study.h"
#include "sim/engines/transport/transport.h"

namespace perflab::transport {

struct RealRun {
  bool realtime = false;           // the processes run SCHED_FIFO (sim/engines/real/realtime.h)
  real::OversleepStats oversleep;  // how late every node's sleeps and timer wake-ups were
};

// Runs `hub` as node `name` in this process, then joins its threads and waits for the nodes it spawned to
// end (and kills those that do not). An error says how a node's process ended if it did not end cleanly,
// then what the hub saw. `realtime`: ask for SCHED_FIFO first (every process and thread inherits it).
Result<RealRun> run_on_real(const RunContext& context, const std::string& name,
                            const std::function<Status(Node&)>& hub, bool realtime = true);

inline constexpr const char* kFaultVariable = "PERFLAB_REAL_FAULT";

}  // namespace perflab::transport
