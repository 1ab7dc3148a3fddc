// Study `prefetch`: Jenkins Remoting class-loading prefetch (PR #721, JENKINS-72226) on a real JGit workload.
// The knobs, each bound to the member it sets, the metrics, and the prepare step that indexes the classpath
// once per sweep, before any fork.
#include "scenarios/prefetch/prefetch_study.h"

#include <algorithm>

#include "scenarios/prefetch/jgit_inputs.h"
#include "sim/scenario/scenario.h"

namespace perflab::prefetch_study {

const Knobs<JobOptions>& knobs() {
  static const Knobs<JobOptions> knobs = [] {
    using O = JobOptions;
    Knobs<O> k;
    k.integer(
        "prefetch_depth", [](O & o) -> auto& { return o.server.prefetch_depth; },
        "levels of dependencies fetch3 sends (0: only the requested class)");
    k.integer(
        "prune_threshold", [](O & o) -> auto& { return o.server.prune_threshold; },
        "beyond this level only same-JAR dependencies are expanded");
    k.choice(
        "traversal", [](O & o) -> auto& { return o.server.traversal; }, prefetch::kTraversalNames,
        "dfs (the PR), bfs (shallowest level first), jar (whole JAR)");
    k.choice("jar_cache", &O::jar_cache, prefetch::kJarCacheNames,
             "cold: JARs downloaded on first use (the PR cleared the cache); warm: all JARs local");
    k.choice("trace_order", &O::trace_order, prefetch::kTraceOrderNames,
             "initiated: replay loads in the order the JVM initiated them, a class before the supertypes "
             "its definition loaded (what an agent does); logged: in the log's order (post-order)");
    k.boolean("delay_jar_downloads", &O::delay_jar_downloads,
              "whether rpc_delay is also injected before each JAR download. The PR does not say; its diff "
              "sleeps only before IClassLoader RPCs, and a JAR comes through JarLoader.writeJarTo, so false "
              "is closer to its runs. Default true: the behaviour before this parameter existed");
    k.distribution("rpc_delay", &O::rpc_delay,
                   "injected sleep before each class-loading RPC (the PR's slow-network simulation)");
    k.duration("server_cpu_per_class", &O::server_cpu_per_class,
               "controller CPU per class loaded or scanned");
    k.duration("client_cpu_per_class", &O::client_cpu_per_class, "agent CPU per class defined");
    k.duration("exchange_overhead", &O::exchange_overhead,
               "added to every request/reply exchange: 0 is an ideal transport; a calibration of the real "
               "engine's cost per exchange beyond the wake-ups the transport charges "
               "(scenarios/prefetch/calibrate.toml, NOTES.md)")
        .only(Engine::kSim);
    k.path("trace", &O::trace,
           "JDK 17 -Xlog:class+load log: the workload is its classes from classpath JARs, replayed in "
           "trace_order");
    k.paths("classpath", &O::classpath,
            "the controller's JARs, first wins; an element not ending in .jar is a classpath file (one JAR "
            "per line), read when the scenario runs (default: Debian's jgit-cli classpath of the trace)");
    return k;
  }();
  return knobs;
}

namespace {

// The counts both engines report, bound through `job` (the JobResult inside the engine's result).
// Exact (compared seed by seed): every count. With a cold JAR cache RPCs and extra fetches depend on the
// seed's delays (a hit costs a fetch while its JAR is still downloading), but not on anything else.
template <class R, class Job>
void bind_job_counts(MetricBindings<R>& m, Job job) {
  const auto agent = [job](auto member) {
    return [job, member](const R& r) { return job(r).agent.*member; };
  };
  using A = prefetch::AgentStats;
  m.count("rpcs", agent(&A::rpcs), "class-loading RPCs: fetch3 + extra fetch").exactly();
  m.count("fetch3_calls", agent(&A::fetch3_calls), "fetch3 RPCs: loads that were not prefetch hits")
      .exactly();
  m.count("classes_prefetched", agent(&A::classes_prefetched),
          "classes in all fetch3 replies, requested ones included (as the PR counted)")
      .exactly();
  m.count("prefetch_hits", agent(&A::prefetch_hits), "loads answered from prefetched hints").exactly();
  m.bytes("bytes_prefetched", agent(&A::bytes_prefetched),
          "class-file bytes of prefetched classes (the agent's memory cost)")
      .exactly();
  m.count(
       "server_classes_loaded", [job](const R& r) { return job(r).server_classes_loaded; },
       "classes the controller loaded to answer")
      .exactly();
  m.count("jar_downloads", agent(&A::jar_downloads),
          "JARs downloaded (cold JAR cache): those a defined class needed")
      .exactly();
  m.count("extra_fetches", agent(&A::extra_fetches),
          "fetch RPCs for a class's bytes: a class sent as a JAR reference only (a prefetch hit, or a "
          "fetch3 reply once the controller has written the JAR) whose JAR had not arrived yet")
      .exactly();
}

}  // namespace

const MetricBindings<JobResult>& metrics() {
  static const MetricBindings<JobResult> metrics = [] {
    MetricBindings<JobResult> m;
    bind_job_counts(m, [](const JobResult& r) -> const JobResult& { return r; });
    m.seconds("duration_s", &JobResult::duration_s, "simulated job duration");
    return m;
  }();
  return metrics;
}

const MetricBindings<RealJobResult>& real_metrics() {
  static const MetricBindings<RealJobResult> metrics = [] {
    using R = RealJobResult;
    MetricBindings<R> m;
    bind_job_counts(m, [](const R& r) -> const JobResult& { return r.job; });
    m.seconds(
        "duration_s", [](const R& r) { return r.job.duration_s; }, "wall-clock job duration (real engine)");
    bind_oversleep(m, "sleeps on a deadline in the future (both processes)");
    return m;
  }();
  return metrics;
}

namespace {

// Reads the trace and the JARs of the point once, before any run is forked; bad files are input errors.
Result<PointInputs> prepare(const Params& params) {
  auto inputs = load_inputs(knobs().options(params));
  if (!inputs.ok()) return inputs.status();
  return PointInputs(*inputs);
}

Study prefetch_study() {
  Study study;
  study.name = "prefetch";
  study.description = "Jenkins Remoting class-loading prefetch (PR #721) on a real JGit class-load trace";
  study.params = knobs().specs();
  study.prepare = prepare;
  study.prepare_reads = kInputParams;
  bind_sim(study, metrics(), run_jgit_job);
  bind_real(study, real_metrics(), run_real_jgit_job);
  study.calibration = calibration_fit();
  study.probes_wake_up = true;  // the sim twin charges this machine's wake-ups; the fit takes only the rest
  return study;
}

const StudyRegistration registration(prefetch_study);

}  // namespace
}  // namespace perflab::prefetch_study
