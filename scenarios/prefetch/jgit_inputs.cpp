#include "scenarios/prefetch/jgit_inputs.h"

#include <map>

#include "models/prefetch/class_load_trace.h"
#include "models/prefetch/classpath.h"

namespace perflab::prefetch_study {

Result<std::shared_ptr<const JGitInputs>> load_inputs(const std::string& trace,
                                                      const std::vector<std::string>& classpath) {
  static std::map<std::string, std::shared_ptr<const JGitInputs>> cache;
  std::string key = trace;
  for (const auto& jar : classpath) key += "\n" + jar;
  if (auto it = cache.find(key); it != cache.end()) return it->second;

  auto loads = prefetch::ReadClassLoadTrace(trace);
  if (!loads.ok()) return loads.status();
  auto opened = prefetch::Classpath::Open(classpath);
  if (!opened.ok()) return opened.status();
  auto graph = prefetch::DependencyGraph::Build(*opened);
  if (!graph.ok()) return graph.status();
  auto workload = prefetch::MakeWorkload(*loads, classpath);
  if (workload.classes.empty()) {
    return Status::Error(trace +
                         ": no class of the trace comes from a JAR of the classpath, expected a "
                         "-Xlog:class+load log of a run that used these JARs");
  }
  std::vector<uint64_t> jar_bytes;
  jar_bytes.reserve(static_cast<size_t>(opened->jar_count()));
  for (int j = 0; j < opened->jar_count(); ++j) jar_bytes.push_back(opened->jar(j).file_size_bytes());
  auto inputs = std::make_shared<const JGitInputs>(
      JGitInputs{std::move(graph).value(), std::move(workload), std::move(jar_bytes)});
  cache[key] = inputs;
  return inputs;
}

}  // namespace perflab::prefetch_study
