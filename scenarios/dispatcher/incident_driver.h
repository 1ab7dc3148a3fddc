// The OkHttp incident's one driver, for both engines (issue 40): written against a transport's Node
// (sim/engines/transport/transport.h), so the SimGrid engine (incident.cpp) and the real engine
// (real_incident.cpp) run the same code and differ only by their transport and their monitor.
//
// The client is the hub. Every call comes from its own application thread, which sleeps until the call's
// arrival (arrivals.h's streams, or the request log's) and enqueues it on the real Dispatcher
// (models/dispatcher) with the point's strategy; the Dispatcher hands promoted calls to an executor whose
// `threads` workers take them from a channel. A worker sends the call's request (request_size bytes) to
// its host, a node of its own, which waits the call's server time and answers with response_size bytes;
// the client's body routes each answer by its call to the worker waiting for it; the worker then calls
// finished(). Every locked section of the Dispatcher runs under the engine's monitor (the seam), which
// measures the lock: simulated_monitor.h charges the lock cost model, real_monitor.h times a real mutex.
//
// The server time travels in the request, as a test server's delay endpoint (httpbin's /delay/n) is told
// how long to wait: the worker draws it from dispatcher.server_time when it sends the request (the request
// log's duration_s when it has one), one worker at a time. Both engines so draw the same values in the
// order their workers send: the simulated order in the sim, the threads' order in real time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/request_log.h"
#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/engines/transport/transport.h"
#include "sim/sampling/rng.h"

namespace perflab::dispatcher_study {

// A call as the application makes it: when (seconds after the clock's start), to which host, and the
// request log's server time when it has one.
struct ScheduledCall {
  double time_s = 0;
  int host = 0;
  std::optional<double> server_time_s;
};

// The point's calls: the request log's (may be null) or Poisson arrivals over popularity-picked hosts.
std::vector<ScheduledCall> schedule_of(const RunContext& context, const DispatcherOptions& x, double zipf_s,
                                       const dispatcher::RequestLog* log);

// The name of host `host`'s node, the same on both engines (its links' latency streams are named by it).
std::string host_name(int host);

// What an engine gives the driver beside its transport.
struct IncidentSeams {
  // Puts every locked section of the Dispatcher under the engine's monitor.
  std::function<void(dispatcher::Dispatcher&)> guard;
  // From the last application thread's start to the clock's start: the real engine's threads need the time
  // to go to sleep on their deadlines; 0 in the sim.
  double start_margin_s = 0;
  // May be empty: a call's wait for a worker, from its enqueue to its start (the sim's timeline).
  std::function<void(const std::string& call, double enqueued, double started)> queued;
};

// What the driver measured, beside what the monitor did.
struct IncidentRun {
  std::vector<double> latencies;  // each call's, from its enqueue to its finished()
  double duration_s = 0;          // from the clock's start to the last finished()
  std::int64_t calls_run = 0;     // calls the workers ran (each exactly once, or the run is an error)
  std::int64_t calls_finished = 0;
  std::map<std::string, std::uint64_t> bytes_sent;  // per message kind, on the wire (header included)
};

// The client's body: spawns the hosts, runs every call, ends the hosts. `server_rng`: dispatcher.server_time.
Result<IncidentRun> drive_incident(transport::Node& client, const DispatcherOptions& x,
                                   const IncidentSetup& setup, const std::vector<ScheduledCall>& schedule,
                                   Rng server_rng, const IncidentSeams& seams);

// The point's request log, when it has one (the study's prepare step read it), else null.
const dispatcher::RequestLog* request_log_of(const RunContext& context, const DispatcherOptions& x);

// The two engines' entries: what the monitor measured, and what the driver did.
struct SimIncident {
  IncidentResult incident;
  IncidentRun run;
};
struct RealIncident {
  RealIncidentResult real;
  IncidentRun run;
};
Result<SimIncident> run_sim_incident(const RunContext& context, const DispatcherOptions& x,
                                     const IncidentSetup& setup);  // incident.cpp
Result<RealIncident> run_real_incident(const RunContext& context, const DispatcherOptions& x,
                                       const IncidentSetup& setup);  // real_incident.cpp

}  // namespace perflab::dispatcher_study
