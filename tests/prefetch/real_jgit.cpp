// Loading of the committed JGit workload for tests and benchmarks; see real_jgit.h.
#include "tests/prefetch/real_jgit.h"

#include <filesystem>
#include <utility>

#include "models/prefetch/classpath_file.h"

namespace perflab::prefetch::testing {

std::string DataDirectory() {
  return PERFLAB_PREFETCH_DATA_DIR;
}
std::string ClasspathFilePath() {
  return DataDirectory() + "/jgit-clone.classpath";
}
std::string TracePath() {
  return DataDirectory() + "/jgit-clone.classload.log";
}

Result<std::vector<std::string>> RealClasspathPaths() {
  Result<std::vector<std::string>> paths = ReadClasspathFile(ClasspathFilePath());
  if (!paths.ok()) return paths;
  for (const std::string& path : *paths) {
    if (!std::filesystem::exists(path)) {
      return Status::Error(path + " (named by " + ClasspathFilePath() +
                           ") is missing: install the Debian packages jgit-cli and libjgit-java "
                           "(see scenarios/prefetch/data/capture-trace.sh for the full list of JARs)");
    }
  }
  return paths;
}

namespace {

Result<RealJGit> Load() {
  RealJGit jgit;
  Result<std::vector<std::string>> paths = RealClasspathPaths();
  if (!paths.ok()) return paths.status();
  jgit.jar_paths = std::move(paths).value();

  Result<Classpath> classpath = Classpath::Open(jgit.jar_paths);
  if (!classpath.ok()) return classpath.status();
  jgit.classpath = std::move(classpath).value();

  Result<DependencyGraph> graph = DependencyGraph::Build(jgit.classpath);
  if (!graph.ok()) return graph.status();
  jgit.graph = std::make_unique<DependencyGraph>(std::move(graph).value());

  Result<std::vector<TracedClassLoad>> trace = ReadClassLoadTrace(TracePath());
  if (!trace.ok()) return trace.status();
  jgit.trace = std::move(trace).value();
  const DependencyGraph& headers = *jgit.graph;
  jgit.workload = MakeWorkload(
      InitiationOrder(jgit.trace, [&headers](const std::string& name) { return headers.Header(name); }),
      jgit.jar_paths);
  jgit.logged_workload = MakeWorkload(jgit.trace, jgit.jar_paths);
  return jgit;
}

}  // namespace

Result<const RealJGit*> LoadRealJGit() {
  static const Result<RealJGit> loaded = Load();
  if (!loaded.ok()) return loaded.status();
  return &loaded.value();
}

}  // namespace perflab::prefetch::testing
