// A child JVM running this folder's Java against Debian's OkHttp 3.13.1 (libokhttp-java, libokio-java),
// driven one command a line over its stdin and stdout: the okhttp-jvm strategy's WorkloadRunner and the
// differential test's DifferentialDriver. Where the JDK or a jar is missing, Start() says which package
// to install. The JVM dies with the process that started it (PR_SET_PDEATHSIG), so a point killed for
// its timeout leaves no JVM behind.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <memory>
#include <string>

#include "models/common/status.h"

namespace perflab::okhttp_jvm {

// OK when java, okhttp.jar, okio.jar and this folder's compiled jar are all there; otherwise what is
// missing and the Debian package that provides it. The environment variables PERFLAB_JAVA and
// PERFLAB_OKHTTP_JAR override the java executable and okhttp.jar found at configure time.
Status available();

class JvmProcess {
 public:
  // Starts `java -cp <okhttp, okio, ours> <main_class>`. Errors: what available() reports, or a failed
  // fork/exec.
  static Result<std::unique_ptr<JvmProcess>> Start(const std::string& main_class);
  JvmProcess(pid_t pid, FILE* to_jvm, FILE* from_jvm);
  JvmProcess(const JvmProcess&) = delete;
  JvmProcess& operator=(const JvmProcess&) = delete;
  // Closes the JVM's stdin (it exits at end of input) and reaps it.
  ~JvmProcess();

  // Sends one line, returns the reply line without its "ok" (and the space or '|' after it). A reply
  // "error <why>" becomes an error; so does a JVM that exits or crashes before replying.
  Result<std::string> request(const std::string& line);

 private:
  Status died();

  pid_t pid_;
  FILE* to_jvm_;
  FILE* from_jvm_;
};

}  // namespace perflab::okhttp_jvm
