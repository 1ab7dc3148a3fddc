// Sim engine entry of the OkHttp incident: the one driver (incident_driver.h) on the SimGrid transport
// (sim/engines/transport/sim_transport.h), the client and every host a simulated host, each message's
// latency drawn per link as the real engine draws it. What only the sim has is the monitor: each locked
// section of the real Dispatcher — two per enqueue(), two per finished(), released in between as in
// OkHttp — holds the simulated monitor (simulated_monitor.h) for the elements the real code touched under
// its lock at the lock cost model's prices (lock_cost_model.h), and `lock` says who gets it when it is
// released (barging as a Java monitor, or fifo). What the thread dumps showed — threads piling up BLOCKED
// on the lock while one thread scans — shows here as lock wait time and the number of simulated threads
// blocked at once.
#include <string>
#include <vector>

#include "scenarios/dispatcher/arrivals.h"
#include "scenarios/dispatcher/incident_driver.h"
#include "scenarios/dispatcher/incident_result.h"
#include "scenarios/dispatcher/simulated_monitor.h"
#include "sim/engines/timeline.h"
#include "sim/engines/transport/sim_transport.h"

namespace perflab::dispatcher_study {

Result<SimIncident> run_sim_incident(const RunContext& context, const DispatcherOptions& x,
                                     const IncidentSetup& setup) {
  SimulatedMonitor monitor(x.lock, x.lock_cost, context.timeline);
  IncidentSeams seams;
  seams.guard = [&monitor](dispatcher::Dispatcher& d) { monitor.guard(d); };
  if (Timeline* timeline = context.timeline) {
    seams.queued = [timeline](const std::string& call, double enqueued, double started) {
      timeline->span("queue", call + " queued", enqueued, started);
    };
  }
  std::vector<std::string> names = {"client"};
  for (int h = 0; h < x.hosts; ++h) names.push_back(host_name(h));
  const std::vector<ScheduledCall> schedule =
      schedule_of(context, x, setup.zipf_s, request_log_of(context, x));

  IncidentRun run;
  Status ran = transport::run_on_simgrid(
      context, names,
      [&](transport::Node& client) -> Status {
        auto driven = drive_incident(client, x, setup, schedule, context.rng(kServerTimeStream), seams);
        if (!driven.ok()) return driven.status();
        run = std::move(driven).value();
        return Status::OK();
      },
      transport::SimLatency::kPerLink);  // each message the latency the real engine draws for it
  if (!ran.ok()) return ran;
  return SimIncident{incident_result(monitor, run.latencies, run.duration_s), std::move(run)};
}

}  // namespace perflab::dispatcher_study
