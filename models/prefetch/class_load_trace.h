// Reader of the workload trace: a JDK 17 `java -Xlog:class+load=info` log, such as
// scenarios/prefetch/data/jgit-clone.classload.log, one line per class the JVM loaded:
//
//   [0.077s][info][class,load] org.eclipse.jgit.pgm.Main source:
//   file:/usr/share/java/org.eclipse.jgit.pgm.jar
//
// Any decorators may precede the message as long as the level and tags decorators are there (the default
// uptime,level,tags is). Kept, in log order: every [info][class,load] line of a named class, with the JAR
// when its source is a `file:` URL of a JAR; other sources (`jrt:/` and `shared objects file` are JDK
// classes, `__JVM_DefineClass__`, `__dynamic_proxy__` generated ones, a directory) keep an empty JAR: they
// are not the agent's workload, but they are loads of the JVM and take part in rebuilding the initiation
// order (initiation_order.h). Skipped: hidden classes (names with '/', defined by a host class, never loaded
// by name), other tags, other levels (debug lines add detail to a load already logged). Anything else is an
// error "trace.log:LINE: ...".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/common/status.h"

namespace perflab::prefetch {

struct TracedClassLoad {
  std::string class_name;  // binary name
  std::string jar_path;    // the file: URL of the source, percent-decoded; empty when not a JAR
  int line = 0;
  bool from_jdk = false;  // source `jrt:/<module>` or `shared objects file` (the JDK's CDS archive)

  bool from_jar() const { return !jar_path.empty(); }
};

// `trace_name` is used in error messages.
Result<std::vector<TracedClassLoad>> parse_class_load_trace(std::string_view text,
                                                            const std::string& trace_name);
Result<std::vector<TracedClassLoad>> read_class_load_trace(const std::string& path);

}  // namespace perflab::prefetch
