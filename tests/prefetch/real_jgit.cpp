// Loading of the committed JGit workload for tests and benchmarks; see real_jgit.h.
#include "tests/prefetch/real_jgit.h"

#include <filesystem>
#include <utility>

#include "models/prefetch/classpath_file.h"

namespace perflab::prefetch::testing {

std::string data_directory() {
  return PERFLAB_PREFETCH_DATA_DIR;
}
std::string classpath_file_path() {
  return data_directory() + "/jgit-clone.classpath";
}
std::string trace_path() {
  return data_directory() + "/jgit-clone.classload.log";
}

Result<std::vector<std::string>> real_classpath_paths() {
  Result<std::vector<std::string>> paths = read_classpath_file(classpath_file_path());
  if (!paths.ok()) return paths;
  for (const std::string& path : *paths) {
    if (!std::filesystem::exists(path)) {
      return Status::Error(path + " (named by " + classpath_file_path() +
                           ") is missing: install the Debian packages jgit-cli and libjgit-java "
                           "(see scenarios/prefetch/data/capture-trace.sh for the full list of JARs)");
    }
  }
  return paths;
}

namespace {

Result<RealJGit> load() {
  RealJGit jgit;
  Result<std::vector<std::string>> paths = real_classpath_paths();
  if (!paths.ok()) return paths.status();
  jgit.jar_paths = std::move(paths).value();

  Result<Classpath> classpath = Classpath::Open(jgit.jar_paths);
  if (!classpath.ok()) return classpath.status();
  jgit.classpath = std::move(classpath).value();

  Result<DependencyGraph> graph = DependencyGraph::Build(jgit.classpath);
  if (!graph.ok()) return graph.status();
  jgit.graph = std::make_unique<DependencyGraph>(std::move(graph).value());

  Result<std::vector<TracedClassLoad>> trace = read_class_load_trace(trace_path());
  if (!trace.ok()) return trace.status();
  jgit.trace = std::move(trace).value();
  const DependencyGraph& headers = *jgit.graph;
  jgit.workload = make_workload(
      initiation_order(jgit.trace, [&headers](const std::string& name) { return headers.header(name); }),
      jgit.jar_paths);
  jgit.logged_workload = make_workload(jgit.trace, jgit.jar_paths);
  return jgit;
}

}  // namespace

Result<const RealJGit*> load_real_j_git() {
  static const Result<RealJGit> loaded = load();
  if (!loaded.ok()) return loaded.status();
  return &loaded.value();
}

}  // namespace perflab::prefetch::testing
