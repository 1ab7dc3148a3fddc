// Study `dispatcher`: OkHttp's Dispatcher (square/okhttp PR #4581). Registers the parameters both engines
// share, the micro workloads (micro_workload.cpp), the incident simulation (incident.cpp) and the PR-shaped
// headline reports (dispatcher_report.cpp).
#include "scenarios/dispatcher/dispatcher_study.h"

#include "scenarios/dispatcher/simulated_monitor.h"
#include "sim/run_table.h"

namespace perflab::dispatcher_study {

Status validate_popularity(const Params& params);

namespace {

// Lock cost per element touched, measured on the development machine with
// `perflab run scenarios/dispatcher/calibrate.toml` (results/dispatcher/dispatcher-calibrate.md), four runs:
// scan 2.66-3.05 ns, counter 2.85-2.95 ns per element; the default is their mean.
constexpr const char* kMeasuredNsPerOp = "2.8";

Study dispatcher_study() {
  Study study;
  study.name = "dispatcher";
  study.description =
      "OkHttp Dispatcher: per-host bookkeeping scan (3.12) vs counter (3.13, the PR) vs indexed";
  const std::vector<std::string> strategies = {"scan", "counter", "indexed"};
  study.params = {
      {"strategy", ParamType::kChoice, "\"counter\"",
       "per-host bookkeeping: scan (3.12.0), counter (3.13+), indexed", strategies, 0},
      {"max_requests", ParamType::kInt, "64", "maxRequests: async calls running at once", {}, 1},
      {"max_requests_per_host", ParamType::kInt, "5", "maxRequestsPerHost (websockets exempt)", {}, 1},
      {"workload",
       ParamType::kChoice,
       "\"enqueue_burst\"",
       "micro: enqueue_burst (PR benchmark, limits = n) | one_host_backlog | distinct_hosts | round_robin",
       {"enqueue_burst", "one_host_backlog", "distinct_hosts", "round_robin"},
       0,
       "micro"},
      {"n", ParamType::kInt, "64", "micro: calls in the workload", {}, 1, "micro"},
      {"calls", ParamType::kInt, "20000", "sim: calls the application makes", {}, 1, "sim"},
      {"arrival_rate",
       ParamType::kReal,
       "2000",
       "sim: Poisson arrival rate, calls per second",
       {},
       1e-9,
       "sim"},
      {"threads", ParamType::kInt, "256", "sim: executor worker threads", {}, 1, "sim"},
      {"hosts", ParamType::kInt, "20", "sim: distinct hosts the calls go to", {}, 1, "sim"},
      {"host_popularity",
       ParamType::kText,
       "\"uniform\"",
       "sim: \"uniform\" or \"zipf(s)\" over the hosts",
       {},
       0,
       "sim"},
      {"request_size", ParamType::kSize, "\"1KiB\"", "sim: bytes of each request", {}, 0, "sim"},
      {"response_size", ParamType::kSize, "\"16KiB\"", "sim: bytes of each response", {}, 0, "sim"},
      {"server_time",
       ParamType::kDistribution,
       "\"constant(50ms)\"",
       "sim: server think time per call",
       {},
       0,
       "sim"},
      {"ns_per_op",
       ParamType::kReal,
       kMeasuredNsPerOp,
       "sim: lock hold per element touched, ns (measured: scenarios/dispatcher/calibrate.toml)",
       {},
       0,
       "sim"},
  };
  study.params.push_back(
      {"lock",
       ParamType::kChoice,
       "\"barging\"",
       "sim: who gets the released dispatcher lock: barging (a Java monitor: a running thread may take it "
       "ahead of blocked ones) | fifo (the longest-blocked thread)",
       {kLockHandOffNames.begin(), kLockHandOffNames.end()},
       0,
       "sim"});
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
      {"ops_under_lock", "elements touched under the lock in one workload", true},
      {"ns_per_op", "seconds / ops_under_lock, in nanoseconds: the sim engine's lock cost per element"},
  };
  study.validate = validate_popularity;
  study.setup_micro = setup_micro_workload;
  study.run_sim = run_incident;
  study.headline_report = [](const RunTable& table) {
    return table.scenario->engine == "micro" ? burst_report(table) + exponent_report(table) : std::string();
  };
  return study;
}

const StudyRegistration registration(dispatcher_study);

}  // namespace
}  // namespace perflab::dispatcher_study
