// The committed JGit workload (scenarios/prefetch/data) loaded for tests and benchmarks: the classpath file,
// the Debian JARs it names, the dependency graph scanned from them, the class-load trace and the workload
// in both replay orders.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/class_load_trace.h"
#include "models/prefetch/classpath.h"
#include "models/prefetch/dependency_graph.h"
#include "models/prefetch/initiation_order.h"
#include "models/prefetch/workload.h"

namespace perflab::prefetch::testing {

std::string data_directory();
std::string classpath_file_path();
std::string trace_path();

// The JAR paths of the committed classpath file, checked to exist (the error says which package to install).
Result<std::vector<std::string>> real_classpath_paths();

struct RealJGit {
  std::vector<std::string> jar_paths;
  Classpath classpath;
  std::unique_ptr<DependencyGraph> graph;
  std::vector<TracedClassLoad> trace;  // as logged, JDK classes included
  Workload workload;                   // in initiation order (the study's default)
  Workload logged_workload;            // in logged order
};

// Loaded once per process and shared; the error explains what is missing.
Result<const RealJGit*> load_real_j_git();

}  // namespace perflab::prefetch::testing
