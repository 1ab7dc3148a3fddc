// Study `dispatcher`: OkHttp's Dispatcher (square/okhttp PR #4581). The knobs both engines share, each
// bound to the member it sets, the micro workloads (micro_workload.cpp), the incident on either engine
// (incident_driver.cpp, entered by incident.cpp and real_incident.cpp) and the claims.
#include "scenarios/dispatcher/dispatcher_study.h"

#include <cstdio>
#include <memory>

#include "models/dispatcher/request_log.h"
#include "scenarios/dispatcher/incident_driver.h"

#include "sim/runner/run_table.h"

namespace perflab::dispatcher_study {

const EnumNames<Implementation>& implementation_names() {
  using dispatcher::kStrategyNames;
  using dispatcher::Strategy;
  static const EnumNames<Implementation> names{
      kStrategyNames.kind(),
      {{Implementation::kScan, kStrategyNames.name(Strategy::kScan)},
       {Implementation::kCounter, kStrategyNames.name(Strategy::kCounter)},
       {Implementation::kIndexed, kStrategyNames.name(Strategy::kIndexed)},
       {Implementation::kOkHttpJvm, "okhttp-jvm"}}};
  return names;
}

std::optional<dispatcher::Strategy> cpp_port(Implementation implementation) {
  switch (implementation) {
    case Implementation::kScan:
      return dispatcher::Strategy::kScan;
    case Implementation::kCounter:
      return dispatcher::Strategy::kCounter;
    case Implementation::kIndexed:
      return dispatcher::Strategy::kIndexed;
    case Implementation::kOkHttpJvm:
      return std::nullopt;
  }
  return std::nullopt;
}

Result<double> parse_host_popularity(const std::string& text) {
  if (text == "uniform") return 0.0;
  double s = 0;
  char close = 0;
  if (std::sscanf(text.c_str(), "zipf(%lf%c", &s, &close) == 2 && close == ')' && s > 0) return s;
  return Status::Error("host_popularity \"" + text +
                       "\" is not understood, expected \"uniform\" or \"zipf(s)\" "
                       "with s > 0, e.g. \"zipf(1.1)\"");
}

const Knobs<DispatcherOptions>& knobs() {
  static const Knobs<DispatcherOptions> knobs = [] {
    using O = DispatcherOptions;
    const Engine sim = Engine::kSim;
    const Engine micro = Engine::kMicro;
    const Engine real = Engine::kReal;
    Knobs<O> k;
    k.choice("strategy", &O::strategy, implementation_names(),
             "per-host bookkeeping: scan (3.12.0), counter (3.13+), indexed (C++ ports); "
             "okhttp-jvm (micro: the real OkHttp 3.13.1 on a JVM, Debian's libokhttp-java)");
    k.integer("max_requests", &O::max_requests, "maxRequests: async calls running at once").at_least(1);
    k.integer("max_requests_per_host", &O::max_requests_per_host, "maxRequestsPerHost (websockets exempt)")
        .at_least(1);
    k.choice("workload", &O::workload, dispatcher::kWorkloadNames,
             "micro: enqueue_burst (PR benchmark, limits = n) | one_host_backlog | distinct_hosts | "
             "round_robin")
        .only(micro);
    k.integer("n", &O::n, "micro: calls in the workload").at_least(1).only(micro);
    k.integer("calls", &O::calls, "sim, real: calls the application makes").at_least(1).only(sim, real);
    k.real("arrival_rate", &O::arrival_rate, "sim, real: Poisson arrival rate, calls per second")
        .at_least(1e-9)
        .only(sim, real);
    k.integer("threads", &O::threads, "sim, real: executor worker threads").at_least(1).only(sim, real);
    k.integer("hosts", &O::hosts, "sim, real: distinct hosts the calls go to").at_least(1).only(sim, real);
    k.text("host_popularity", &O::host_popularity, "sim, real: \"uniform\" or \"zipf(s)\" over the hosts")
        .only(sim, real);
    k.size("request_size", &O::request_size, "sim, real: bytes of each request").only(sim, real);
    k.size("response_size", &O::response_size, "sim, real: bytes of each response").only(sim, real);
    k.distribution("server_time", &O::server_time, "sim, real: server think time per call").only(sim, real);
    const auto cost = [](auto member) {
      return [member](O & o) -> auto& {
        return o.lock_cost.*member;
      };
    };
    using C = LockCostModel;
    k.duration(
         "lock_section_cost", cost(&C::section_s),
         "sim: lock hold of every locked section beyond its elements (a calibration: lock_cost_model.h)")
        .only(sim);
    k.duration("lock_move_cost", cost(&C::move_s),
               "sim: more hold when the section's thread is not the lock's last holder (a calibration)")
        .only(sim);
    k.duration("lock_idle_cost", cost(&C::idle_s),
               "sim: more hold per decade the lock was free beyond 100 us before the section (a calibration)")
        .only(sim);
    k.real("cold_ns_per_op", cost(&C::cold_ns_per_op),
           "sim: ns more for each element a section reaches first, up to the calls listed (a calibration)")
        .only(sim);
    k.real("ns_per_op", cost(&C::ns_per_op),
           "sim: hold per element touched, ns, before the running calls' term (a calibration)")
        .only(sim);
    k.real("ns_per_op_per_running_call", cost(&C::ns_per_op_per_running_call),
           "sim: ns more per element for each running call the walk meets, up to as many as fill L1d (a "
           "calibration)")
        .only(sim);
    k.size("cache_l1d", cost(&C::l1d_bytes),
           "sim, real: the L1 data cache: a walk is charged for the running calls that fill it, no more (the "
           "calibration machine's)")
        .only(sim, real);
    k.choice("lock", &O::lock, kLockHandOffNames,
             "sim: who gets the released dispatcher lock: barging (a Java monitor: a running thread may take "
             "it ahead of blocked ones) | glibc (barging as the real engine's std::mutex: a blocked thread "
             "that loses the race queues again behind the others) | fifo (the longest-blocked thread)")
        .only(sim);
    k.boolean(
         "sched_fifo", &O::sched_fifo,
         "real: ask for SCHED_FIFO for every thread (false: ordinary scheduling, as a service runs); the "
         "rows' realtime column says whether it was obtained")
        .only(real);
    k.duration("stuck_after", &O::stuck_after_s,
               "sim, real: a run whose calls in flight get no answer for this long (on its clock) fails as "
               "stuck; raise it where a lock convoy legitimately answers nothing for minutes")
        .at_least(1e-3)
        .only(sim, real);
    k.path("request_log", &O::request_log,
           "a request log (CSV: time_s, host, optional duration_s) as the workload; sim: its arrivals, hosts "
           "(and server times) replace Poisson, host_popularity (and server_time); micro: its host sequence "
           "enqueued as a burst under the limits, then finished. Empty: the synthetic workloads");
    return k;
  }();
  return knobs;
}

namespace {

// The incident's metrics, the same in both engines: `incident` gets a result's IncidentResult. Times are
// simulated (sim) or wall-clock (real); exact counts are compared seed by seed in the sim only (a real
// run's interleaving decides how much each section touched).
template <class R, class Incident>
void bind_incident(MetricBindings<R>& m, Incident incident) {
  using I = IncidentResult;
  const auto field = [incident](auto member) {
    return [incident, member](const R& r) { return incident(r).*member; };
  };
  m.number("throughput_rps", field(&I::throughput_rps), "calls/s", "calls finished per second");
  m.seconds("latency_p50_s", field(&I::latency_p50_s), "median time from enqueue to finished");
  m.seconds("latency_p99_s", field(&I::latency_p99_s), "99th percentile time from enqueue to finished");
  m.seconds("lock_hold_max_s", field(&I::lock_hold_max_s), "longest single hold of the dispatcher lock");
  m.seconds("lock_hold_total_s", field(&I::lock_hold_total_s), "total time the dispatcher lock was held");
  m.seconds("lock_wait_total_s", field(&I::lock_wait_total_s),
            "total time threads spent blocked on the lock");
  m.count("blocked_threads_max", field(&I::blocked_threads_max),
          "most threads blocked on the lock at once (the incident's jstack)")
      .exactly();
  m.count("lock_acquisitions", field(&I::lock_acquisitions),
          "times the dispatcher lock was taken (two per enqueue, two per finished)")
      .exactly();
  m.count("ops_under_lock", field(&I::ops_under_lock), "elements the real Dispatcher touched under its lock")
      .exactly();
  const auto terms = [incident](auto member) {
    return [incident, member](const R& r) { return incident(r).lock_terms.*member; };
  };
  m.count("lock_moves", terms(&LockCostTally::moves),
          "sections whose thread was not the lock's last holder (the cost model's move term)")
      .exactly();
  m.number("idle_decades", terms(&LockCostTally::idle_decades), "",
           "sum over sections of log10(how long the lock was free before it / 100 us) (the idle term)");
  m.count("cold_ops", terms(&LockCostTally::cold_ops),
          "elements sections reached first, up to the calls listed (the cost model's cold term)")
      .exactly();
  m.number("ops_running_calls", terms(&LockCostTally::ops_running_calls), "",
           "elements touched x the running calls each walk met, up to L1d's worth (the cost model's growth "
           "term)");
  m.seconds("duration_s", field(&I::duration_s), "time until the last call finished");
}

}  // namespace

const MetricBindings<IncidentResult>& sim_metrics() {
  static const MetricBindings<IncidentResult> metrics = [] {
    MetricBindings<IncidentResult> m;
    bind_incident(m, [](const IncidentResult& r) -> const IncidentResult& { return r; });
    return m;
  }();
  return metrics;
}

const MetricBindings<RealIncidentResult>& real_metrics() {
  static const MetricBindings<RealIncidentResult> metrics = [] {
    using R = RealIncidentResult;
    MetricBindings<R> m;
    bind_incident(m, [](const R& r) -> const IncidentResult& { return r.incident; });
    bind_oversleep(m, "sleeps on a deadline in the future (the application threads, the hosts' timers)");
    return m;
  }();
  return metrics;
}

const MetricBindings<WorkloadReport>& micro_metrics() {
  static const MetricBindings<WorkloadReport> metrics = [] {
    using R = WorkloadReport;
    MetricBindings<R> m;
    m.seconds("seconds", &R::seconds, "median wall time of one whole workload");
    m.number("ns_per_call", &R::ns_per_call, "ns", "seconds / n, in nanoseconds");
    m.count("ops_under_lock", &R::ops_under_lock,
            "elements touched under the lock in one workload (0 for okhttp-jvm: not instrumented)")
        .exactly();
    m.number("ns_per_op", &R::ns_per_op, "ns",
             "seconds / ops_under_lock, in nanoseconds: one hot thread's cost per element (0 for "
             "okhttp-jvm, whose elements are not counted)");
    return m;
  }();
  return metrics;
}

Result<IncidentSetup> incident_setup(const DispatcherOptions& options) {
  auto zipf_s = parse_host_popularity(options.host_popularity);
  if (!zipf_s.ok()) return zipf_s.status();
  const std::optional<dispatcher::Strategy> strategy = cpp_port(options.strategy);
  if (!strategy) {
    const auto ports = dispatcher::kStrategyNames.names();
    return Status::Error("strategy \"" + std::string(implementation_names().name(options.strategy)) +
                         "\" runs on the micro engine only, expected " + ports[0] + ", " + ports[1] + " or " +
                         ports[2] + " for the incident (sim and real engines)");
  }
  return IncidentSetup{*strategy, *zipf_s};
}

Status complete_from_request_log(Params& params) {
  const DispatcherOptions o = knobs().options(params);
  if (o.request_log.empty()) return Status::OK();
  auto log = dispatcher::read_request_log(o.request_log);
  if (!log.ok()) return log.status();
  const DispatcherOptions defaults;
  const auto from_log = [&params](const std::string& name, int64_t set, int64_t by_default, size_t logged,
                                  const std::string& what) -> Status {
    if (set != by_default && set != static_cast<int64_t>(logged)) {
      return Status::Error(name + " = " + std::to_string(set) + " conflicts with request_log's " +
                           std::to_string(logged) + " " + what + ", expected " + name + " left out");
    }
    params.set(name, ParamValue{static_cast<int64_t>(logged), std::to_string(logged)});
    return Status::OK();
  };
  const size_t calls = log->requests.size();
  Status s = from_log("calls", o.calls, defaults.calls, calls, "requests");
  if (s.ok()) s = from_log("n", o.n, defaults.n, calls, "requests");
  if (s.ok()) s = from_log("hosts", o.hosts, defaults.hosts, log->hosts.size(), "distinct hosts");
  return s;
}

namespace {

Status validate(const Params& params) {
  const DispatcherOptions o = knobs().options(params);
  if (!(o.lock_cost.l1d_bytes > 0)) {
    return Status::Error(
        "cache_l1d must be more than 0 B (a walk is charged for the running calls that fill it), got " +
        std::to_string(static_cast<int64_t>(o.lock_cost.l1d_bytes)) + " B");
  }
  return parse_host_popularity(o.host_popularity).status();
}

Study dispatcher_study() {
  Study study;
  study.name = "dispatcher";
  study.description =
      "OkHttp Dispatcher: per-host bookkeeping scan (3.12) vs counter (3.13, the PR) vs indexed, and the "
      "real OkHttp 3.13.1 on a JVM";
  study.params = knobs().specs();
  study.complete = complete_from_request_log;
  study.validate = validate;
  // A request log's arrivals and hosts replace the Poisson arrivals over popularity-picked hosts (calls and
  // hosts are the log's counts, set by complete_from_request_log).
  study.unused = [](const Params& params) {
    return params.has("request_log") && !params.string("request_log").empty()
               ? std::vector<std::string>{"arrival_rate", "host_popularity"}
               : std::vector<std::string>{};
  };
  // A request log is read once per file; the okhttp-jvm points share one JVM, warmed once per workload.
  study.prepare = [](const Params& params) -> Result<PointInputs> {
    const DispatcherOptions o = knobs().options(params);
    if (o.strategy == Implementation::kOkHttpJvm && o.request_log.empty()) return prepare_okhttp_jvm();
    if (o.request_log.empty()) return PointInputs{};
    auto log = dispatcher::read_request_log(o.request_log);
    if (!log.ok()) return log.status();
    return PointInputs(std::make_shared<const dispatcher::RequestLog>(std::move(log).value()));
  };
  study.prepare_reads = {"request_log", "strategy"};
  bind_sim(study, sim_metrics(), [](const RunContext& context) -> Result<IncidentResult> {
    const DispatcherOptions x = knobs().options(context.params);
    auto setup = incident_setup(x);
    if (!setup.ok()) return setup.status();
    auto sim = run_sim_incident(context, x, *setup);
    if (!sim.ok()) return sim.status();
    return sim->incident;
  });
  bind_real(study, real_metrics(), [](const RunContext& context) -> Result<RealIncidentResult> {
    const DispatcherOptions x = knobs().options(context.params);
    auto setup = incident_setup(x);
    if (!setup.ok()) return setup.status();
    auto real = run_real_incident(context, x, *setup);
    if (!real.ok()) return real.status();
    return real->real;
  });
  bind_micro(study, micro_metrics(), setup_micro_workload);
  study.claims = dispatcher_claims;
  study.calibration = calibration_fit();
  return study;
}

const StudyRegistration registration(dispatcher_study);

}  // namespace
}  // namespace perflab::dispatcher_study
