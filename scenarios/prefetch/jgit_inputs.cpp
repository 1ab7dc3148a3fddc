// Loading of the prefetch study's shared inputs; see jgit_inputs.h.
#include "scenarios/prefetch/jgit_inputs.h"

#include <filesystem>

#include "models/common/printable.h"
#include "models/prefetch/class_load_trace.h"
#include "models/prefetch/classpath.h"
#include "models/prefetch/classpath_file.h"
#include "models/prefetch/initiation_order.h"

namespace perflab::prefetch_study {
namespace {

bool is_jar(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".jar") == 0;
}

}  // namespace

Result<std::vector<std::string>> expand_classpath(const std::vector<std::string>& elements) {
  std::vector<std::string> jars;
  for (const auto& element : elements) {
    if (is_jar(element)) {
      jars.push_back(element);
      continue;
    }
    auto listed = prefetch::read_classpath_file(element);
    if (!listed.ok()) return listed.status();
    for (const std::string& jar : *listed) {
      std::error_code error;
      if (!std::filesystem::is_regular_file(jar, error)) {  // named with the file that listed it
        return Status::Error(element + ": lists " + printable(jar, 200) +
                             ", which is not a file; expected one JAR path per line");
      }
    }
    jars.insert(jars.end(), listed->begin(), listed->end());
  }
  return jars;
}

Result<std::shared_ptr<const JGitInputs>> load_inputs(const JobOptions& options) {
  const std::string& trace = options.trace;
  // Every error names the parameter that pointed to the file.
  auto classpath = expand_classpath(options.classpath);
  if (!classpath.ok()) return classpath.status().with_context("params.classpath: ");

  auto loads = prefetch::read_class_load_trace(trace);
  if (!loads.ok()) return loads.status().with_context("params.trace: ");
  auto opened = prefetch::Classpath::Open(*classpath);
  if (!opened.ok()) return opened.status().with_context("params.classpath: ");
  auto graph = prefetch::DependencyGraph::Build(*opened);
  if (!graph.ok()) return graph.status().with_context("params.classpath: ");
  std::vector<prefetch::TracedClassLoad> replayed = std::move(loads).value();
  if (options.trace_order == prefetch::TraceOrder::kInitiated) {
    const prefetch::DependencyGraph& headers = *graph;
    replayed = prefetch::initiation_order(
        replayed, [&headers](const std::string& name) { return headers.header(name); });
  }
  auto workload = prefetch::make_workload(replayed, *classpath);
  prefetch::leave_out_classes_not_in(workload, *opened);
  if (workload.classes.empty()) {
    return Status::Error("params.trace: " + trace +
                         ": no class of the trace comes from a JAR of the classpath, expected a "
                         "-Xlog:class+load log of a run that used these JARs");
  }
  std::vector<uint64_t> jar_bytes;
  jar_bytes.reserve(static_cast<size_t>(opened->jar_count()));
  for (int j = 0; j < opened->jar_count(); ++j) jar_bytes.push_back(opened->jar(j).file_size_bytes());
  return std::make_shared<const JGitInputs>(
      JGitInputs{std::move(graph).value(), std::move(workload), std::move(jar_bytes)});
}

}  // namespace perflab::prefetch_study
