// The `dispatcher` study's pieces, registered together in dispatcher_study.cpp: its options and knobs, the
// micro engine's workloads that time the real Dispatcher (micro_workload.cpp) or the real OkHttp on a JVM
// (okhttp_jvm_workload.cpp), the incident's one driver (incident_driver.h) with the real Dispatcher behind a
// simulated monitor (incident.cpp) or a real one on real threads in real time (real_incident.cpp), and the
// claims. Its
// presentation (the PR-shaped reports, plots) is scenarios/dispatcher/page.py.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/common/enum_names.h"
#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/strategy.h"
#include "models/dispatcher/workloads.h"
#include "scenarios/dispatcher/jvm/okhttp_jvm.h"
#include "scenarios/dispatcher/lock_cost_model.h"
#include "scenarios/dispatcher/lock_hand_off.h"
#include "sim/sampling/distribution.h"
#include "sim/study/knobs.h"
#include "sim/study/metrics.h"
#include "sim/study/study.h"

namespace perflab::dispatcher_study {

// What the `strategy` knob runs: one of the model's C++ ports, or the real OkHttp 3.13.1 on a JVM (micro
// engine only).
enum class Implementation { kScan, kCounter, kIndexed, kOkHttpJvm };
// The ports under the model's own names (dispatcher::kStrategyNames), then "okhttp-jvm".
const EnumNames<Implementation>& implementation_names();
// The C++ port an implementation is; none for okhttp-jvm.
std::optional<dispatcher::Strategy> cpp_port(Implementation implementation);

// The lock cost model's constants (lock_cost_model.h): CALIBRATIONS, fitted on real threads at points
// outside every validation grid (scenarios/dispatcher/calibrate-real.toml; the fit, its residuals and the
// run: results/dispatcher/dispatcher-calibrate-real.calibration.*). The incident and its validation both
// run at these, so the published headline is the validated model.
constexpr LockCostModel kCalibratedLockCost{/*section_s=*/0,
                                            /*move_s=*/0.573e-6,
                                            /*idle_s=*/1.16e-6,
                                            /*cold_ns_per_op=*/34.7,
                                            /*ns_per_op=*/2.65,
                                            /*ns_per_op_per_running_call=*/0.00949,
                                            /*l1d_bytes=*/48 * 1024};

// Everything a dispatcher scenario sets; the limits' defaults are the Dispatcher's own.
struct DispatcherOptions {
  Implementation strategy = Implementation::kCounter;
  int64_t max_requests = dispatcher::Dispatcher::kDefaultMaxRequests;
  int64_t max_requests_per_host = dispatcher::Dispatcher::kDefaultMaxRequestsPerHost;
  dispatcher::Workload workload = dispatcher::Workload::kEnqueueBurst;  // micro
  int64_t n = 64;                                                       // micro: calls in the workload
  int64_t calls = 20000;                                                // sim, and the rest below
  double arrival_rate = 2000;
  int64_t threads = 256;
  int64_t hosts = 20;
  std::string host_popularity = "uniform";  // "uniform" or "zipf(s)": parse_host_popularity()
  double request_size = 1024;
  double response_size = 16 * 1024;
  Distribution server_time = Distribution::constant(50e-3, Quantity::kDuration);
  LockCostModel lock_cost = kCalibratedLockCost;
  LockHandOff lock = LockHandOff::kBarging;
  bool sched_fifo = false;     // real: ask for SCHED_FIFO
  double stuck_after_s = 120;  // sim, real: no answer for this long while calls are in flight: stuck
  std::string request_log;     // a request log (models/dispatcher/request_log.h) as the workload; empty: none
};

// With request_log set, the point's calls and n are the log's requests and hosts its distinct hosts (set in
// its parameters, so its tables show them); an error if the scenario set other numbers or the log is bad.
Status complete_from_request_log(Params& params);

// The study's knobs, each bound to the member of DispatcherOptions it sets.
const Knobs<DispatcherOptions>& knobs();

// The Zipf exponent s of host_popularity ("zipf(s)", s > 0), 0 for "uniform".
Result<double> parse_host_popularity(const std::string& text);

// What an incident run (sim or real engine) drives: the C++ port and the hosts' Zipf exponent. An error for
// okhttp-jvm: the incident charges the ports' counted work, which the real library cannot report.
struct IncidentSetup {
  dispatcher::Strategy strategy;
  double zipf_s;
};
Result<IncidentSetup> incident_setup(const DispatcherOptions& options);

// What one incident run measures.
struct IncidentResult {
  double throughput_rps = 0;
  double latency_p50_s = 0;
  double latency_p99_s = 0;
  double lock_hold_max_s = 0;
  double lock_hold_total_s = 0;
  double lock_wait_total_s = 0;
  int64_t blocked_threads_max = 0;
  int64_t lock_acquisitions = 0;
  int64_t ops_under_lock = 0;
  LockCostTally lock_terms;  // the sections as the lock cost model counts them
  double duration_s = 0;
};

// What one real-engine incident run measures: the same, in wall-clock time, and how late its sleeps woke.
struct RealIncidentResult {
  IncidentResult incident;
  uint64_t sleeps = 0;
  double oversleep_mean_s = 0;
  double oversleep_max_s = 0;
  bool realtime = false;
};

// What a micro workload measures from its median time.
struct WorkloadReport {
  double seconds = 0;
  double ns_per_call = 0;
  double ops_under_lock = 0;
  double ns_per_op = 0;
};

// The study's metrics of each engine, each bound to the member that carries it.
const MetricBindings<IncidentResult>& sim_metrics();
const MetricBindings<RealIncidentResult>& real_metrics();
const MetricBindings<WorkloadReport>& micro_metrics();

Result<MicroWorkloadOf<WorkloadReport>> setup_micro_workload(const Params& params, const PointInputs& inputs);

// The okhttp-jvm points' inputs: the JVM a scenario run's points share (one session each), or why there is
// none (its rows fail with that reason, the other strategies run).
using SharedJvm = Result<std::shared_ptr<const okhttp_jvm::JvmServer>>;
PointInputs prepare_okhttp_jvm();
Result<MicroWorkloadOf<WorkloadReport>> setup_okhttp_jvm_workload(const DispatcherOptions& options,
                                                                  const PointInputs& inputs);
std::vector<Claim> dispatcher_claims(const RunTable& table);
CalibrationHook calibration_fit();  // `perflab calibrate dispatcher` (calibration_fit.cpp)

}  // namespace perflab::dispatcher_study
