// The agent's workload: the classes a traced run loaded from the JARs of the controller's classpath, in
// load order. The classpath (from the classpath file, or the user's override) decides what the controller
// can serve; the trace only says what the job loads and in which order. A traced class whose JAR is not on
// the classpath is dropped (the agent would have it locally, like a JDK class); loads that are not from a JAR
// (JDK and generated classes) are skipped and not counted as dropped. JARs are compared as files:
// /usr/share/java/jsch.jar and the jsch-0.1.54.jar it links to are the same JAR.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/prefetch/class_load_trace.h"

namespace perflab::prefetch {

struct Workload {
  std::vector<std::string> classes;  // load order, each class once
  std::vector<int> jars_used;        // classpath indexes of the JARs the classes come from, ascending
  std::size_t dropped = 0;           // traced loads from JARs not on the classpath
};

Workload make_workload(const std::vector<TracedClassLoad>& trace, const std::vector<std::string>& classpath);

}  // namespace perflab::prefetch
