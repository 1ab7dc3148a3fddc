// A child JVM running this folder's Java against Debian's OkHttp 3.13.1 (libokhttp-java, libokio-java),
// driven one command a line: the differential test's DifferentialDriver over the JVM's stdin and stdout
// (JvmProcess), the okhttp-jvm strategy's WorkloadRunner over sessions on a Unix socket (JvmServer: one
// JVM per scenario run, started before the runs are forked, one session per run). Where the JDK or a jar
// is missing, Start() says which package to install. The JVM dies with the process that started it
// (PR_SET_PDEATHSIG) and exits when its stdin closes, so nothing outlives the run.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab::okhttp_jvm {

// OK when java, okhttp.jar, okio.jar and this folder's compiled jar are all there; otherwise what is
// missing and the Debian package that provides it. The environment variables PERFLAB_JAVA and
// PERFLAB_OKHTTP_JAR override the java executable and okhttp.jar found at configure time.
Status available();

class JvmProcess {
 public:
  // Starts `java -cp <okhttp, okio, ours> <main_class> <args>`. Errors: what available() reports, or a
  // failed fork/exec.
  static Result<std::unique_ptr<JvmProcess>> Start(const std::string& main_class,
                                                   const std::vector<std::string>& args = {});
  JvmProcess(pid_t pid, FILE* to_jvm, FILE* from_jvm);
  JvmProcess(const JvmProcess&) = delete;
  JvmProcess& operator=(const JvmProcess&) = delete;
  // Closes the JVM's stdin (it exits at end of input) and reaps it.
  ~JvmProcess();

  // Sends one line, returns the reply line without its "ok" (and the space or '|' after it). A reply
  // "error <why>" becomes an error; so does a JVM that exits or crashes before replying.
  Result<std::string> request(const std::string& line);
  // Reads one reply line without sending anything (a line the JVM writes on its own).
  Result<std::string> reply();

 private:
  Status died();

  pid_t pid_;
  FILE* to_jvm_;
  FILE* from_jvm_;
};

// One session with a JvmServer's JVM, over its own connection; request() as JvmProcess's.
class JvmSession {
 public:
  JvmSession(FILE* to_jvm, FILE* from_jvm) : to_jvm_(to_jvm), from_jvm_(from_jvm) {}
  JvmSession(const JvmSession&) = delete;
  JvmSession& operator=(const JvmSession&) = delete;
  // Ends the session (the JVM then serves the next one).
  ~JvmSession();

  Result<std::string> request(const std::string& line);

 private:
  FILE* to_jvm_;
  FILE* from_jvm_;
};

// A JVM serving sessions on a Unix socket in a private temporary folder (`<main_class> --listen SOCKET`),
// one at a time: a session that connects while another is open waits for it to end. Made in the parent
// before it forks the runs, so the runs share its warmed JIT, while each still times its own session.
class JvmServer {
 public:
  // Starts the JVM and waits until it listens. Errors: as JvmProcess::Start, or the JVM's exit before it
  // listened.
  static Result<std::unique_ptr<JvmServer>> Start(const std::string& main_class);
  JvmServer(std::unique_ptr<JvmProcess> jvm, std::filesystem::path folder)
      : jvm_(std::move(jvm)), folder_(std::move(folder)) {}
  JvmServer(const JvmServer&) = delete;
  JvmServer& operator=(const JvmServer&) = delete;
  // Stops the JVM and removes its socket's folder.
  ~JvmServer();

  // A new session. Errors: the JVM is gone (it crashed or exited: its stderr says why).
  Result<std::unique_ptr<JvmSession>> connect() const;

 private:
  std::filesystem::path socket() const { return folder_ / "socket"; }

  std::unique_ptr<JvmProcess> jvm_;
  std::filesystem::path folder_;
};

}  // namespace perflab::okhttp_jvm
