// The `prefetch` study's pieces, registered together in prefetch_study.cpp: the knobs of a scenario and the
// options they set, the simulated JGit job (jgit_job.cpp) and the PR-shaped headline report
// (prefetch_report.cpp).
#pragma once

#include <string>
#include <vector>

#include "models/prefetch/initiation_order.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "sim/knobs.h"
#include "sim/metrics.h"
#include "sim/run_table.h"
#include "sim/study.h"

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
  std::string trace = "data/jgit-clone.classload.log";
  std::vector<std::string> classpath = {"data/jgit-clone.classpath"};
};

// The study's knobs, each bound to the member of JobOptions it sets.
const Knobs<JobOptions>& knobs();

// What one job measures: the agent's and the controller's counters and the job's duration.
struct JobResult {
  prefetch::AgentStats agent;
  std::uint64_t server_classes_loaded = 0;
  double duration_s = 0;  // simulated seconds
};

// The study's metrics, each bound to the member of JobResult that carries it.
const MetricBindings<JobResult>& metrics();

Result<JobResult> run_jgit_job(const RunContext& context);
std::string depth_report(const RunTable& table);
std::string pareto_report(const RunTable& table);

}  // namespace perflab::prefetch_study
