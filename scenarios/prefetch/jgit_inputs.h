// The inputs every run of a `prefetch` grid point shares: the controller's classpath indexed into a
// dependency graph (by scanning the real class files) and the agent's workload from the class-load trace.
// Loaded once in the parent process (Study::prepare) and cached, so forked runs inherit them for free.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/dependency_graph.h"
#include "models/prefetch/workload.h"

namespace perflab::prefetch_study {

struct JGitInputs {
  prefetch::DependencyGraph graph;
  prefetch::Workload workload;
  std::vector<uint64_t> jar_bytes;  // file size of each classpath JAR (what a cold JAR cache downloads)
};

// Cached by (trace, classpath): the same paths give the same object.
Result<std::shared_ptr<const JGitInputs>> load_inputs(const std::string& trace,
                                                      const std::vector<std::string>& classpath);

}  // namespace perflab::prefetch_study
