// Study `prefetch`: Jenkins Remoting class-loading prefetch (PR #721, JENKINS-72226) on a real JGit workload.
// Parameters, metrics, and the prepare step that indexes the classpath once per sweep, before any fork.
#include "scenarios/prefetch/prefetch_study.h"

#include <algorithm>

#include "models/prefetch/initiation_order.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "scenarios/prefetch/jgit_inputs.h"
#include "sim/scenario.h"

namespace perflab::prefetch_study {
namespace {

// The model's own names for a choice parameter's values.
template <typename Enum, size_t N>
std::vector<std::string> names_of(const Enum (&values)[N], const char* (*name)(Enum)) {
  std::vector<std::string> names;
  for (Enum value : values) names.emplace_back(name(value));
  return names;
}

// Reads the trace and the JARs of the point once, before any run is forked; bad files are input errors.
Result<PointInputs> prepare(const Params& params) {
  auto inputs = load_inputs(params);
  if (!inputs.ok()) return inputs.status();
  return PointInputs(*inputs);
}

Study prefetch_study() {
  Study study;
  study.name = "prefetch";
  study.description = "Jenkins Remoting class-loading prefetch (PR #721) on a real JGit class-load trace";
  study.params = {
      int_param("prefetch_depth", "1", "levels of dependencies fetch3 sends (0: only the requested class)"),
      int_param("prune_threshold", "1", "beyond this level only same-JAR dependencies are expanded"),
      choice_param("traversal", "dfs", names_of(prefetch::kTraversals, prefetch::traversal_name),
                   "dfs (the PR), bfs (shallowest level first), jar (whole JAR)"),
      choice_param("jar_cache", "cold", names_of(prefetch::kJarCaches, prefetch::jar_cache_name),
                   "cold: JARs downloaded on first use (the PR cleared the cache); warm: all JARs local"),
      choice_param(
          "trace_order", "initiated", names_of(prefetch::kTraceOrders, prefetch::trace_order_name),
          "initiated: replay loads in the order the JVM initiated them, a class before the supertypes "
          "its definition loaded (what an agent does); logged: in the log's order (post-order)"),
      bool_param(
          "delay_jar_downloads", "true",
          "whether rpc_delay is also injected before each JAR download. The PR does not say; its diff "
          "sleeps only before IClassLoader RPCs, and a JAR comes through JarLoader.writeJarTo, so false "
          "is closer to its runs. Default true: the behaviour before this parameter existed"),
      distribution_param("rpc_delay", "uniform(0ms, 250ms)",
                         "injected sleep before each class-loading RPC (the PR's slow-network simulation)"),
      duration_param("server_cpu_per_class", "50us", "controller CPU per class loaded or scanned"),
      duration_param("client_cpu_per_class", "100us", "agent CPU per class defined"),
      path_param("trace", "data/jgit-clone.classload.log",
                 "JDK 17 -Xlog:class+load log: the workload is its classes from classpath JARs, replayed in "
                 "trace_order"),
      path_list_param(
          "classpath", "[\"data/jgit-clone.classpath\"]",
          "the controller's JARs, first wins; an element not ending in .jar is a classpath file (one "
          "JAR per line), read when the scenario runs (default: Debian's jgit-cli classpath of the "
          "trace)"),
  };
  // Exact (compared seed by seed): every count. With a cold JAR cache RPCs and extra fetches depend on the
  // seed's delays (a hit costs a fetch while its JAR is still downloading), but not on anything else.
  study.metrics = {
      {"rpcs", "class-loading RPCs: fetch3 + extra fetch", true},
      {"fetch3_calls", "fetch3 RPCs: loads that were not prefetch hits", true},
      {"classes_prefetched", "classes in all fetch3 replies, requested ones included (as the PR counted)",
       true},
      {"prefetch_hits", "loads answered from prefetched hints", true},
      {"bytes_prefetched", "class-file bytes of prefetched classes (the agent's memory cost)", true},
      {"server_classes_loaded", "classes the controller loaded to answer", true},
      {"jar_downloads", "JARs downloaded (cold JAR cache): those a defined class needed", true},
      {"extra_fetches", "hits whose JAR was not downloaded yet: one extra fetch RPC each", true},
      {"duration_s", "simulated job duration"},
  };
  study.prepare = prepare;
  study.prepare_reads = kInputParams;
  study.run_sim = run_jgit_job;
  // The depth sweep gets the PR's table; the traversal comparison gets the Pareto table.
  study.headline_report = [](const RunTable& table) {
    const auto& columns = table.scenario->param_columns;
    bool compares_traversals =
        table.points_where("traversal", prefetch::traversal_name(prefetch::Traversal::kDfs)).size() <
        table.scenario->grid.size();
    return std::find(columns.begin(), columns.end(), "traversal") != columns.end() && compares_traversals
               ? pareto_report(table)
               : depth_report(table);
  };
  return study;
}

const StudyRegistration registration(prefetch_study);

}  // namespace
}  // namespace perflab::prefetch_study
