// Real engine entry of the OkHttp incident: the one driver (incident_driver.h) on the real transport
// (sim/engines/transport/real_transport.h) — the client is this process, its application threads and
// executor workers real threads, every host a forked process on its own shaped loopback link — in real
// time. What only the real engine has is here: the monitor, a real std::mutex with timestamps around each
// locked section (real_monitor.h), so the run measures what the sim charges (lock hold, lock wait, the
// most threads blocked at once, throughput); SCHED_FIFO on request; and the start margin its threads need
// to go to sleep on their deadlines before the first call arrives.
//
// Every thread is joined and every host process reaped before the run returns, on failure too; a stuck run
// ends after the transport's idle timeout with an error, and one that outlives the point timeout is killed
// by the runner with its process group.
#include "scenarios/dispatcher/arrivals.h"
#include "scenarios/dispatcher/incident_driver.h"
#include "scenarios/dispatcher/incident_result.h"
#include "scenarios/dispatcher/real_monitor.h"
#include "sim/engines/transport/real_transport.h"

namespace perflab::dispatcher_study {
namespace {

// From the application threads' start to the clock's start: they go to sleep on their deadlines.
constexpr double kStartMarginS = 0.2;
// One application thread per call: beyond this many, the machine's thread limit is the experiment.
constexpr std::int64_t kMaxCalls = 20'000;
// One process per host: the scenarios have at most 50 (validate-heldout.toml).
constexpr std::int64_t kMaxHosts = 256;
// Locked sections a call takes (enqueue and its promotion, finished and its promotion), and a few more: the
// monitor's records are made for them up front, so that none is allocated under the lock.
constexpr size_t kSectionsPerCall = 4;
constexpr size_t kSpareSections = 64;

}  // namespace

Result<RealIncident> run_real_incident(const RunContext& context, const DispatcherOptions& x,
                                       const IncidentSetup& setup) {
  if (x.calls > kMaxCalls) {
    return Status::Error("calls = " + std::to_string(x.calls) +
                         ": the real engine makes one application thread per call, expected at most " +
                         std::to_string(kMaxCalls));
  }
  if (x.hosts > kMaxHosts) {
    return Status::Error("hosts = " + std::to_string(x.hosts) +
                         ": the real engine forks a process per host, expected at most " +
                         std::to_string(kMaxHosts));
  }
  if (!(context.network.bandwidth > 0)) {
    return Status::Error("[network] bandwidth must be positive for the real engine's links");
  }
  const std::vector<ScheduledCall> schedule =
      schedule_of(context, x, setup.zipf_s, request_log_of(context, x));
  RealMonitor monitor(x.lock_cost, kSectionsPerCall * schedule.size() + kSpareSections);
  IncidentSeams seams;
  seams.guard = [&monitor](dispatcher::Dispatcher& d) { monitor.guard(d); };
  seams.start_margin_s = kStartMarginS;

  IncidentRun run;
  auto ran = transport::run_on_real(
      context, "client",
      [&](transport::Node& client) -> Status {
        auto driven = drive_incident(client, x, setup, schedule, context.rng(kServerTimeStream), seams);
        if (!driven.ok()) return driven.status();
        run = std::move(driven).value();
        return Status::OK();
      },
      /*realtime=*/x.sched_fifo);
  if (!ran.ok()) return ran.status();
  const real::OversleepStats& o = ran->oversleep;
  RealIncidentResult result{incident_result(monitor, run.latencies, run.duration_s), o.sleeps, o.mean_s(),
                            static_cast<double>(o.max_ns) * 1e-9, ran->realtime};
  return RealIncident{result, std::move(run)};
}

}  // namespace perflab::dispatcher_study
