// Study `prefetch`: Jenkins Remoting class-loading prefetch (PR #721, JENKINS-72226) on a real JGit workload.
// Parameters, metrics, and the prepare step that indexes the classpath once per sweep, before any fork.
#include "scenarios/prefetch/prefetch_study.h"

#include <algorithm>

#include "models/prefetch/classpath_file.h"
#include "scenarios/prefetch/jgit_inputs.h"
#include "sim/scenario.h"

namespace perflab::prefetch_study {
namespace {

// The default classpath is the one the committed trace was captured with (Debian's jgit-cli JARs), as a
// TOML list literal; without that file the parameter has no default and must be given.
std::string default_classpath() {
  auto jars =
      prefetch::ReadClasspathFile((scenarios_dir() / "prefetch" / "data" / "jgit-clone.classpath").string());
  if (!jars.ok()) return "";
  std::string list = "[";
  for (const auto& jar : *jars) list += (list.size() > 1 ? ", \"" : "\"") + jar + "\"";
  return list + "]";
}

Status prepare(const Params& params) {
  return load_inputs(params.string("trace"), params.paths("classpath")).status();
}

Study prefetch_study() {
  Study study;
  study.name = "prefetch";
  study.description = "Jenkins Remoting class-loading prefetch (PR #721) on a real JGit class-load trace";
  study.params = {
      int_param("prefetch_depth", "1", "levels of dependencies fetch3 sends (0: only the requested class)"),
      int_param("prune_threshold", "1", "beyond this level only same-JAR dependencies are expanded"),
      choice_param("traversal", "dfs", {"dfs", "bfs", "jar"},
                   "dfs (the PR), bfs (shallowest level first), jar (whole JAR)"),
      choice_param("jar_cache", "cold", {"cold", "warm"},
                   "cold: JARs downloaded on first use (the PR cleared the cache); warm: all JARs local"),
      distribution_param("rpc_delay", "uniform(0ms, 250ms)",
                         "injected sleep before each class-loading RPC (the PR's slow-network simulation)"),
      duration_param("server_cpu_per_class", "50us", "controller CPU per class loaded or scanned"),
      duration_param("client_cpu_per_class", "100us", "agent CPU per class defined"),
      path_param("trace", "data/jgit-clone.classload.log",
                 "JDK 17 -Xlog:class+load log: the workload is its classes from classpath JARs, in order"),
      path_list_param(
          "classpath", default_classpath(),
          "the controller's JARs, first wins (default: Debian's jgit-cli classpath of the trace)"),
  };
  study.metrics = {
      {"rpcs", "class-loading RPCs: fetch3 + extra fetch", true},
      {"classes_prefetched", "classes in all fetch3 replies, requested ones included (as the PR counted)",
       true},
      {"prefetch_hits", "loads answered from prefetched hints", true},
      {"bytes_prefetched", "class-file bytes of prefetched classes (the agent's memory cost)", true},
      {"server_classes_loaded", "classes the controller loaded to answer", true},
      {"jar_downloads", "JARs downloaded (cold JAR cache)", true},
      {"extra_fetches", "hits whose JAR was still downloading: one extra fetch RPC each", true},
      {"duration_s", "simulated job duration"},
  };
  study.prepare = prepare;
  study.run_sim = run_jgit_job;
  // The depth sweep gets the PR's table; the traversal comparison gets the Pareto table.
  study.headline_report = [](const RunTable& table) {
    const auto& columns = table.scenario->param_columns;
    bool compares_traversals = table.points_where("traversal", "dfs").size() < table.scenario->grid.size();
    return std::find(columns.begin(), columns.end(), "traversal") != columns.end() && compares_traversals
               ? pareto_report(table)
               : depth_report(table);
  };
  return study;
}

const StudyRegistration registration(prefetch_study);

}  // namespace
}  // namespace perflab::prefetch_study
