// The child JVM; see okhttp_jvm.h.
#include "scenarios/dispatcher/jvm/okhttp_jvm.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>

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

// Sends `line`; false when the other end is gone.
bool send_line(FILE* to, const std::string& line) {
  return std::fprintf(to, "%s\n", line.c_str()) >= 0 && std::fflush(to) == 0;
}

// The next line without its newline; nullopt at the end of input.
std::optional<std::string> read_line(FILE* from) {
  std::string line;
  for (int c = std::fgetc(from); c != '\n'; c = std::fgetc(from)) {
    if (c == EOF) return std::nullopt;
    line.push_back(static_cast<char>(c));
  }
  return line;
}

// A reply line without its "ok" (and the space or '|' after it), or the error it reports.
Result<std::string> parse_reply(const std::string& reply) {
  if (reply.rfind("error ", 0) == 0) return Status::Error("okhttp-jvm: " + reply.substr(6));
  if (reply.rfind("ok", 0) != 0) return Status::Error("okhttp-jvm: unexpected reply \"" + reply + "\"");
  return reply.size() > 2 ? reply.substr(3) : std::string();
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

Result<std::unique_ptr<JvmProcess>> JvmProcess::Start(const std::string& main_class,
                                                      const std::vector<std::string>& main_args) {
  if (Status status = available(); !status.ok()) return status;
  const std::string java_path = java();
  const std::string classpath = okhttp_jar() + ":" + kOkioJar + ":" + kOurJar;
  int to_child[2];
  int from_child[2];
  // Close-on-exec: no other program this process runs holds the JVM's stdin open.
  if (pipe2(to_child, O_CLOEXEC) != 0) return Status::Error(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    return Status::Error(std::string("pipe: ") + std::strerror(errno));
  }
  std::vector<std::string> args = {java_path, "-cp", classpath, main_class};
  args.insert(args.end(), main_args.begin(), main_args.end());
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
  if (!send_line(to_jvm_, line)) return died();
  return reply();
}

Result<std::string> JvmProcess::reply() {
  if (pid_ <= 0) return Status::Error("the okhttp-jvm child JVM is gone");
  auto line = read_line(from_jvm_);
  if (!line) return died();
  return parse_reply(*line);
}

JvmSession::~JvmSession() {
  std::fclose(to_jvm_);
  std::fclose(from_jvm_);
}

Result<std::string> JvmSession::request(const std::string& line) {
  std::optional<std::string> reply;
  if (send_line(to_jvm_, line)) reply = read_line(from_jvm_);
  if (!reply) {
    return Status::Error(
        "the okhttp-jvm JVM ended the session before replying (it crashed or exited: its stderr says why)");
  }
  return parse_reply(*reply);
}

Result<std::unique_ptr<JvmServer>> JvmServer::Start(const std::string& main_class) {
  std::string pattern = (std::filesystem::temp_directory_path() / "perflab-jvm-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    return Status::Error(pattern + ": cannot create the okhttp-jvm socket's folder: " + std::strerror(errno));
  const std::filesystem::path folder = pattern;
  auto remove_folder = [&folder] {
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
  };
  auto started = JvmProcess::Start(main_class, {"--listen", (folder / "socket").string()});
  if (!started.ok()) {
    remove_folder();
    return started.status();
  }
  std::unique_ptr<JvmProcess> jvm = std::move(started).value();
  if (auto listening = jvm->reply(); !listening.ok()) {
    jvm.reset();  // stopped before its folder goes
    remove_folder();
    return listening.status();
  }
  return std::make_unique<JvmServer>(std::move(jvm), folder);
}

JvmServer::~JvmServer() {
  jvm_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

Result<std::unique_ptr<JvmSession>> JvmServer::connect() const {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string path = socket().string();
  if (path.size() >= sizeof address.sun_path)
    return Status::Error(path + ": the okhttp-jvm socket's path is too long; set TMPDIR to a shorter folder");
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::Error(std::string("socket: ") + std::strerror(errno));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const std::string why = std::strerror(errno);
    close(fd);
    return Status::Error("the okhttp-jvm JVM does not answer at " + path + " (" + why +
                         "): it crashed or exited, its stderr says why");
  }
  const int read_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (read_fd < 0) {
    close(fd);
    return Status::Error(std::string("dup: ") + std::strerror(errno));
  }
  return std::make_unique<JvmSession>(fdopen(fd, "w"), fdopen(read_fd, "r"));
}

}  // namespace perflab::okhttp_jvm
