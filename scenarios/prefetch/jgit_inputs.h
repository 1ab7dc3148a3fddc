// The inputs every run of a `prefetch` grid point shares: the controller's classpath indexed into a
// dependency graph (by scanning the real class files) and the agent's workload from the class-load trace,
// in the replay order the point asks for. Loaded once in the parent process (Study::prepare, shared by the
// points that agree on trace, trace_order and classpath), so forked runs inherit them for free. Nothing
// here runs before a command needs it: registering the study reads no file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/dependency_graph.h"
#include "models/prefetch/workload.h"
#include "scenarios/prefetch/prefetch_study.h"

namespace perflab::prefetch_study {

struct JGitInputs {
  prefetch::DependencyGraph graph;
  prefetch::Workload workload;
  std::vector<uint64_t> jar_bytes;  // file size of each classpath JAR (what a cold JAR cache downloads)
};

// The JARs of the `classpath` parameter: each element ending in ".jar" is a JAR, any other is a classpath
// file (one JAR per line, as scenarios/prefetch/data/capture-trace.sh writes it) expanded in place.
Result<std::vector<std::string>> expand_classpath(const std::vector<std::string>& elements);

// From the point's `trace`, `trace_order` and `classpath` (kInputParams): reads and indexes every file.
Result<std::shared_ptr<const JGitInputs>> load_inputs(const JobOptions& options);
inline const std::vector<std::string> kInputParams = {"trace", "trace_order", "classpath"};

}  // namespace perflab::prefetch_study
