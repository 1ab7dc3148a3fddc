// Real-time scheduling for the real engine's processes. Their threads sleep almost all the time, and on a
// loaded machine a woken thread waits for a CPU behind every runnable process: measured here at load 15 on
// 2 vCPUs, 2 ms of oversleep per wake-up on average and 300 ms at worst. SCHED_FIFO at the lowest real-time
// priority wakes them ahead of ordinary processes (what cyclictest does to measure timer latency); the
// kernel's real-time throttling (sched_rt_runtime_us) still leaves 5% of each second to everyone else.
// Threads created and processes forked afterwards inherit it.
#pragma once

#include <sched.h>

namespace perflab::real {

// True when the calling thread now runs SCHED_FIFO (needs CAP_SYS_NICE or an RLIMIT_RTPRIO); false, and
// nothing changed, otherwise: the run goes on with ordinary scheduling and reports it.
inline bool request_realtime_priority() {
  sched_param param{};
  param.sched_priority = sched_get_priority_min(SCHED_FIFO);
  return sched_setscheduler(0, SCHED_FIFO, &param) == 0;
}

}  // namespace perflab::real
