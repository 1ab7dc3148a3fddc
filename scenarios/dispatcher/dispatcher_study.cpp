// Study `dispatcher`: OkHttp's Dispatcher (square/okhttp PR #4581). Registers the parameters both engines
// share, the micro workloads (micro_workload.cpp), the incident simulation (incident.cpp) and the PR-shaped
// headline reports (dispatcher_report.cpp).
#include "scenarios/dispatcher/dispatcher_study.h"

#include "models/dispatcher/strategy.h"
#include "models/dispatcher/workloads.h"
#include "scenarios/dispatcher/simulated_monitor.h"
#include "sim/run_table.h"

namespace perflab::dispatcher_study {

Status validate_popularity(const Params& params);

namespace {

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (auto strategy : dispatcher::kAllStrategies) names.emplace_back(dispatcher::strategy_name(strategy));
  names.emplace_back(kOkHttpJvm);
  return names;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (auto workload : dispatcher::kAllWorkloads) names.emplace_back(dispatcher::workload_name(workload));
  return names;
}

// Lock cost per element touched, measured on the development machine with
// `perflab run scenarios/dispatcher/calibrate.toml` (results/dispatcher/dispatcher-calibrate.md), four runs:
// scan 2.66-3.05 ns, counter 2.85-2.95 ns per element; the default is their mean.
constexpr const char* kMeasuredNsPerOp = "2.8";

Study dispatcher_study() {
  Study study;
  study.name = "dispatcher";
  study.description =
      "OkHttp Dispatcher: per-host bookkeeping scan (3.12) vs counter (3.13, the PR) vs indexed, and the "
      "real "
      "OkHttp 3.13.1 on a JVM";
  study.params = {
      choice_param("strategy", "counter", strategy_names(),
                   "per-host bookkeeping: scan (3.12.0), counter (3.13+), indexed (C++ ports); "
                   "okhttp-jvm (micro: the real OkHttp 3.13.1 on a JVM, Debian's libokhttp-java)"),
      int_param("max_requests", "64", "maxRequests: async calls running at once").at_least(1),
      int_param("max_requests_per_host", "5", "maxRequestsPerHost (websockets exempt)").at_least(1),
      choice_param("workload", "enqueue_burst", workload_names(),
                   "micro: enqueue_burst (PR benchmark, limits = n) | one_host_backlog | distinct_hosts | "
                   "round_robin")
          .only(Engine::kMicro),
      int_param("n", "64", "micro: calls in the workload").at_least(1).only(Engine::kMicro),
      int_param("calls", "20000", "sim: calls the application makes").at_least(1).only(Engine::kSim),
      real_param("arrival_rate", "2000", "sim: Poisson arrival rate, calls per second")
          .at_least(1e-9)
          .only(Engine::kSim),
      int_param("threads", "256", "sim: executor worker threads").at_least(1).only(Engine::kSim),
      int_param("hosts", "20", "sim: distinct hosts the calls go to").at_least(1).only(Engine::kSim),
      text_param("host_popularity", "uniform", "sim: \"uniform\" or \"zipf(s)\" over the hosts")
          .only(Engine::kSim),
      size_param("request_size", "1KiB", "sim: bytes of each request").only(Engine::kSim),
      size_param("response_size", "16KiB", "sim: bytes of each response").only(Engine::kSim),
      distribution_param("server_time", "constant(50ms)", "sim: server think time per call")
          .only(Engine::kSim),
      real_param("ns_per_op", kMeasuredNsPerOp,
                 "sim: lock hold per element touched, ns (measured: scenarios/dispatcher/calibrate.toml)")
          .only(Engine::kSim),
  };
  study.params.push_back(
      choice_param("lock", "barging", {kLockHandOffNames.begin(), kLockHandOffNames.end()},
                   "sim: who gets the released dispatcher lock: barging (a Java monitor: a "
                   "running thread may take it ahead of blocked ones) | fifo (the "
                   "longest-blocked thread)")
          .only(Engine::kSim));
  study.metrics = {
      {"throughput_rps", "calls finished per simulated second"},
      {"latency_p50_s", "median time from enqueue to finished"},
      {"latency_p99_s", "99th percentile time from enqueue to finished"},
      {"lock_hold_max_s", "longest single hold of the dispatcher lock"},
      {"lock_hold_total_s", "total time the dispatcher lock was held"},
      {"lock_wait_total_s", "total time threads spent blocked on the lock"},
      {"blocked_threads_max", "most threads blocked on the lock at once (the incident's jstack)", true},
      {"lock_acquisitions", "times the dispatcher lock was taken (two per enqueue, two per finished)", true},
      {"ops_under_lock", "elements the real Dispatcher touched under its lock", true},
      {"duration_s", "simulated time until the last call finished"},
  };
  study.micro_metrics = {
      {"seconds", "median wall time of one whole workload"},
      {"ns_per_call", "seconds / n, in nanoseconds"},
      {"ops_under_lock",
       "elements touched under the lock in one workload (0 for okhttp-jvm: not instrumented)", true},
      {"ns_per_op", "seconds / ops_under_lock, in nanoseconds: the sim engine's lock cost per element"},
  };
  study.validate = validate_popularity;
  study.setup_micro = setup_micro_workload;
  study.run_sim = run_incident;
  study.headline_report = [](const RunTable& table) {
    return table.scenario->engine == Engine::kMicro ? burst_report(table) + exponent_report(table)
                                                    : std::string();
  };
  study.claims = dispatcher_claims;
  return study;
}

const StudyRegistration registration(dispatcher_study);

}  // namespace
}  // namespace perflab::dispatcher_study
