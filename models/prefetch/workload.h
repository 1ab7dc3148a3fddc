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
#include "models/prefetch/classpath.h"

namespace perflab::prefetch {

struct Workload {
  std::vector<std::string> classes;  // load order, each class once
  std::vector<int> jars_used;        // classpath indexes of the JARs the classes come from, ascending
  std::size_t dropped = 0;           // traced loads from JARs not on the classpath
  std::size_t not_in_jars = 0;       // classes left out by leave_out_classes_not_in
};

Workload make_workload(const std::vector<TracedClassLoad>& trace, const std::vector<std::string>& classpath);

// Leaves out the classes that no JAR of the classpath holds: classes generated at run time into a JAR's
// protection domain (cglib's, Guice's) are logged with that JAR as their source, yet the controller has no
// class file to serve, so they are left out like every other generated class.
void leave_out_classes_not_in(Workload& workload, const Classpath& classpath);

}  // namespace perflab::prefetch
