// The child JVM; see okhttp_jvm.h.
#include "scenarios/dispatcher/jvm/okhttp_jvm.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace perflab::okhttp_jvm {
namespace {

// Found by CMake (scenarios/dispatcher/jvm/CMakeLists.txt); empty when it found none.
constexpr const char* kConfiguredJava = PERFLAB_JAVA_EXECUTABLE;
constexpr const char* kConfiguredOkHttpJar = PERFLAB_OKHTTP_JAR;
constexpr const char* kOkioJar = PERFLAB_OKIO_JAR;
constexpr const char* kOurJar = PERFLAB_OKHTTP_RUNNER_JAR;

std::string setting(const char* variable, const char* configured) {
  const char* value = std::getenv(variable);
  return value != nullptr ? value : configured;
}

std::string java() {
  return setting("PERFLAB_JAVA", kConfiguredJava);
}
std::string okhttp_jar() {
  return setting("PERFLAB_OKHTTP_JAR", kConfiguredOkHttpJar);
}

bool readable(const std::string& path) {
  return !path.empty() && access(path.c_str(), R_OK) == 0;
}

}  // namespace

Status available() {
  const std::string java_path = java();
  if (java_path.empty() || access(java_path.c_str(), X_OK) != 0) {
    return Status::Error("okhttp-jvm needs a Java runtime (java" +
                         (java_path.empty() ? std::string(" was not found") : " not found at " + java_path) +
                         "; Debian: openjdk-17-jdk-headless)");
  }
  const std::string okhttp = okhttp_jar();
  if (!readable(okhttp)) {
    return Status::Error("okhttp-jvm needs Debian's libokhttp-java (" + okhttp + " not found)");
  }
  if (!readable(kOkioJar)) {
    return Status::Error("okhttp-jvm needs Debian's libokio-java (" + std::string(kOkioJar) + " not found)");
  }
  if (!readable(kOurJar)) {
    return Status::Error(
        "okhttp-jvm's runner was not built (a JDK's javac, libokhttp-java and libokio-java must be there "
        "when cmake configures perflab; install them and re-run cmake)");
  }
  return Status::OK();
}

Result<std::unique_ptr<JvmProcess>> JvmProcess::Start(const std::string& main_class) {
  if (Status status = available(); !status.ok()) return status;
  const std::string java_path = java();
  const std::string classpath = okhttp_jar() + ":" + kOkioJar + ":" + kOurJar;
  int to_child[2];
  int from_child[2];
  if (pipe(to_child) != 0) return Status::Error(std::string("pipe: ") + std::strerror(errno));
  if (pipe(from_child) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    return Status::Error(std::string("pipe: ") + std::strerror(errno));
  }
  std::vector<std::string> args = {java_path, "-cp", classpath, main_class};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a JVM that died is reported by request(), not by a signal
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return Status::Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    close(to_child[0]);
    close(to_child[1]);
    close(from_child[0]);
    close(from_child[1]);
    execv(java_path.c_str(), argv.data());
    std::fprintf(stderr, "okhttp-jvm: cannot run %s: %s\n", java_path.c_str(), std::strerror(errno));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  return std::make_unique<JvmProcess>(pid, fdopen(to_child[1], "w"), fdopen(from_child[0], "r"));
}

JvmProcess::JvmProcess(pid_t pid, FILE* to_jvm, FILE* from_jvm)
    : pid_(pid), to_jvm_(to_jvm), from_jvm_(from_jvm) {}

JvmProcess::~JvmProcess() {
  if (to_jvm_ != nullptr) std::fclose(to_jvm_);
  if (from_jvm_ != nullptr) std::fclose(from_jvm_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

Status JvmProcess::died() {
  int status = 0;
  const pid_t ended = waitpid(pid_, &status, 0);
  pid_ = -1;
  if (ended < 0) return Status::Error("the okhttp-jvm child JVM vanished");
  if (WIFSIGNALED(status)) {
    return Status::Error("the okhttp-jvm child JVM was killed by signal " + std::to_string(WTERMSIG(status)));
  }
  return Status::Error("the okhttp-jvm child JVM exited with status " + std::to_string(WEXITSTATUS(status)) +
                       " before replying (its stderr says why)");
}

Result<std::string> JvmProcess::request(const std::string& line) {
  if (pid_ <= 0) return Status::Error("the okhttp-jvm child JVM is gone");
  if (std::fprintf(to_jvm_, "%s\n", line.c_str()) < 0 || std::fflush(to_jvm_) != 0) return died();
  std::string reply;
  for (int c = std::fgetc(from_jvm_); c != '\n'; c = std::fgetc(from_jvm_)) {
    if (c == EOF) return died();
    reply.push_back(static_cast<char>(c));
  }
  if (reply.rfind("error ", 0) == 0) return Status::Error("okhttp-jvm: " + reply.substr(6));
  if (reply.rfind("ok", 0) != 0) return Status::Error("okhttp-jvm: unexpected reply \"" + reply + "\"");
  return reply.size() > 2 ? reply.substr(3) : std::string();
}

}  // namespace perflab::okhttp_jvm
