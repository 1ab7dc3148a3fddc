// The `prefetch` study's pieces, registered together in prefetch_study.cpp: the knobs of a scenario and the
// options they set, the JGit job's one driver (job.h) run on SimGrid (jgit_job.cpp) and in real time
// (real_job.cpp). Its presentation (the PR-shaped report, plots) is scenarios/prefetch/page.py.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/prefetch/initiation_order.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "sim/runner/run_table.h"
#include "sim/study/knobs.h"
#include "sim/study/metrics.h"
#include "sim/study/study.h"

namespace perflab::prefetch_study {

// Everything a prefetch scenario sets: the controller's prefetch (the model's PrefetchOptions, whose
// defaults are Remoting's shipped one-level prefetch), the agent's JAR cache, and what the harness turns
// into the job: the replayed trace and classpath, the injected delays and the CPU costs.
struct JobOptions {
  prefetch::PrefetchOptions server;
  prefetch::JarCache jar_cache = prefetch::JarCache::kCold;  // the PR cleared the cache before each run
  prefetch::TraceOrder trace_order = prefetch::TraceOrder::kInitiated;
  bool delay_jar_downloads = true;
  Distribution rpc_delay = *Distribution::parse("uniform(0ms, 250ms)", Quantity::kDuration, {});
  double server_cpu_per_class = 50e-6;   // seconds
  double client_cpu_per_class = 100e-6;  // seconds
  double exchange_overhead = 0;          // seconds, sim only: a calibration against the real engine
  std::string trace = "data/jgit-clone.classload.log";
  std::vector<std::string> classpath = {"data/jgit-clone.classpath"};
};

// The study's knobs, each bound to the member of JobOptions it sets.
const Knobs<JobOptions>& knobs();

// The named random streams of a run (sim/study/seeding.h), shared by the two engines so that they draw the
// same delays.
constexpr std::string_view kRpcDelayStream = "prefetch.rpc_delay";  // before each class-loading RPC
constexpr std::string_view kJarDelayStream =
    "prefetch.jar_delay";  // before JAR downloads (delay_jar_downloads)

// What one job measures: the agent's and the controller's counters and the job's duration.
struct JobResult {
  prefetch::AgentStats agent;
  std::uint64_t server_classes_loaded = 0;
  double duration_s = 0;                            // simulated seconds (sim), wall-clock seconds (real)
  std::map<std::string, std::uint64_t> bytes_sent;  // by message kind (protocol.h): header and payload
};

// What a real-engine job measures besides: how late its sleeps woke (sim/engines/real/).
struct RealJobResult {
  JobResult job;
  std::uint64_t sleeps = 0;
  double oversleep_mean_s = 0;
  double oversleep_max_s = 0;
  bool realtime = false;
};

// The study's metrics, each bound to the member that carries it: the sim's, and the real engine's (the same
// counts, wall-clock duration, and the sleeps' lateness).
const MetricBindings<JobResult>& metrics();
const MetricBindings<RealJobResult>& real_metrics();

Result<JobResult> run_jgit_job(const RunContext& context);           // sim engine (jgit_job.cpp)
Result<RealJobResult> run_real_jgit_job(const RunContext& context);  // real engine (real_job.cpp)
// The same two with the options already read (the parity test's way in: it has no Params).
Result<JobResult> run_sim_job(const RunContext& context, const JobOptions& options);
Result<RealJobResult> run_real_job(const RunContext& context, const JobOptions& options);
CalibrationHook calibration_fit();  // `perflab calibrate prefetch` (calibration_fit.cpp)

}  // namespace perflab::prefetch_study
