// posix_spawn + F_SETPIPE_SZ + epoll (see real_pump.h). Linux only.
#include "models/pipe/real_pump.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/pipe/write_log.h"

namespace perflab::pipe {
namespace {

constexpr long long kStopPollMs = 100;  // RealPumpOptions::stop

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

Status errno_error(const std::string& what) {
  return Status::Error(what + ": " + std::strerror(errno));
}

// Nanoseconds the process has spent on a CPU (first field of /proc/PID/schedstat), or -1.
double schedstat_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/schedstat");
  unsigned long long ns = 0;
  if (!(in >> ns)) return -1;
  return static_cast<double>(ns) * 1e-9;
}

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

// CLOCK_MONOTONIC, the recorder's clock, in nanoseconds.
int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// The child's environment: ours, with the recorder preloaded and told where to save.
std::vector<std::string> recording_environment(const std::string& recorder, const std::string& log) {
  std::vector<std::string> env;
  std::string preload = "LD_PRELOAD=" + recorder;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    if (entry.rfind("PERFLAB_WRITE_LOG=", 0) == 0) continue;
    if (entry.rfind("LD_PRELOAD=", 0) == 0) {
      preload += ":" + entry.substr(11);
      continue;
    }
    env.push_back(entry);
  }
  env.push_back(preload);
  env.push_back("PERFLAB_WRITE_LOG=" + log);
  return env;
}

// Reads the recorder's log (write_log.h) into writes timed from `origin_ns`.
Status read_write_log(const std::string& path, int64_t origin_ns, RealPumpResult& result) {
  std::ifstream in(path, std::ios::binary);
  WriteLogHeader header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) || header.magic != kWriteLogMagic) {
    return Status::Error(
        "the write recorder did not record (it was not loaded: a program linked statically, or with "
        "LD_PRELOAD ignored)");
  }
  const uint64_t kept = std::min<uint64_t>(header.writes, kMaxWriteRecords);
  result.dropped_writes = header.writes - kept;
  std::vector<WriteLogRecord> records(kept);
  if (!in.read(reinterpret_cast<char*>(records.data()),
               static_cast<std::streamsize>(kept * sizeof(WriteLogRecord)))) {
    return Status::Error(path + ": the write log is cut short");
  }
  for (const WriteLogRecord& r : records) {
    result.writes.push_back(ChildWrite{static_cast<double>(r.start_ns - origin_ns) * 1e-9,
                                       static_cast<double>(r.end_ns - origin_ns) * 1e-9, r.result});
  }
  return Status::OK();
}

}  // namespace

void SideBandCounter::add(const uint8_t* data, size_t size) {
  size_t i = 0;
  while (i < size && !malformed_) {
    if (left_ == 0) {  // reading a length
      length_[have_length_++] = static_cast<char>(data[i++]);
      if (have_length_ < 4) continue;
      have_length_ = 0;
      size_t length = 0;
      for (char c : length_) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) {
          malformed_ = true;
          return;
        }
        int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
        length = length * 16 + static_cast<size_t>(digit);
      }
      if (length == 0) continue;  // flush packet
      if (length < 4) {
        malformed_ = true;
        return;
      }
      left_ = length - 4;
      want_band_ = left_ > 0;
      continue;
    }
    if (want_band_) {
      band1_ = data[i] == 1;
      if (band1_) ++packets_;
      want_band_ = false;
      ++i;
      --left_;
      continue;
    }
    size_t n = std::min(left_, size - i);
    if (band1_) bytes_ += n;
    i += n;
    left_ -= n;
  }
}

Result<RealPumpResult> run_real_pump(const RealPumpOptions& options) {
  if (options.argv.empty()) return Status::Error("real pump: no child command given");
  if (options.stdin_data.size() > 65536) return Status::Error("real pump: stdin_data over 64 KiB");
  if (options.read_size == 0 || options.pipe_size == 0) return Status::Error("real pump: sizes must be > 0");

  int out_fds[2];
  int in_fds[2];
  if (pipe2(out_fds, O_CLOEXEC) != 0) return errno_error("pipe2");
  Fd out_read(out_fds[0]), out_write(out_fds[1]);
  if (pipe2(in_fds, O_CLOEXEC) != 0) return errno_error("pipe2");
  Fd in_read(in_fds[0]), in_write(in_fds[1]);

  RealPumpResult result;
  if (fcntl(out_read.get(), F_SETPIPE_SZ, static_cast<int>(options.pipe_size)) < 0) {
    return errno_error("F_SETPIPE_SZ " + std::to_string(options.pipe_size));
  }
  result.pipe_size = static_cast<size_t>(fcntl(out_read.get(), F_GETPIPE_SZ));
  if (!options.stdin_data.empty() &&
      write(in_write.get(), options.stdin_data.data(), options.stdin_data.size()) !=
          static_cast<ssize_t>(options.stdin_data.size())) {
    return errno_error("writing the child's stdin");
  }
  in_write.reset();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_read.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), 1);
  if (options.stderr_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, options.stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (options.own_process_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  std::vector<char*> argv;
  for (const auto& arg : options.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::string write_log;
  std::vector<std::string> env_entries;
  std::vector<char*> env;
  if (!options.write_recorder.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "perflab-writes-XXXXXX").string();
    int fd = mkstemp(pattern.data());
    if (fd < 0) return errno_error("mkstemp for the write log");
    close(fd);
    write_log = pattern;
    env_entries = recording_environment(options.write_recorder, write_log);
    for (auto& entry : env_entries) env.push_back(entry.data());
    env.push_back(nullptr);
  }
  struct RemoveLog {
    const std::string& path;
    ~RemoveLog() {
      if (!path.empty()) std::remove(path.c_str());
    }
  } remove_log{write_log};
  pid_t child = 0;
  auto start = std::chrono::steady_clock::now();
  const int64_t origin_ns = monotonic_ns();
  int spawned =
      posix_spawnp(&child, argv[0], &actions, &attributes, argv.data(), env.empty() ? environ : env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0)
    return Status::Error("cannot start \"" + options.argv[0] + "\": " + std::strerror(spawned));
  out_write.reset();  // the child holds the only write end now: its exit is our end of stream
  in_read.reset();

  auto reap = [&](bool kill_first) {
    if (kill_first) kill(options.own_process_group ? -child : child, SIGKILL);
    siginfo_t info{};
    while (waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    result.child_cpu_s = schedstat_seconds(child);  // still a zombie: its /proc entry is there
    int status = 0;
    rusage usage{};
    while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    if (result.child_cpu_s >= 0) {
      result.descendants_cpu_s = seconds(usage.ru_utime) + seconds(usage.ru_stime) - result.child_cpu_s;
    }
    result.exited = WIFEXITED(status);
    result.exit_status = result.exited ? WEXITSTATUS(status) : -1;
    result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  };

  fcntl(out_read.get(), F_SETFL, O_NONBLOCK);
  Fd epoll(epoll_create1(EPOLL_CLOEXEC));
  epoll_event event{};
  event.events = EPOLLIN;  // level-triggered, as NuProcess registers it
  if (epoll.get() < 0 || epoll_ctl(epoll.get(), EPOLL_CTL_ADD, out_read.get(), &event) != 0) {
    reap(true);
    return errno_error("epoll");
  }
  std::vector<uint8_t> buffer(options.read_size);
  SideBandCounter side_band;
  auto deadline = start + std::chrono::duration<double>(options.timeout_s);
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      reap(true);
      return Status::Error("real pump: \"" + options.argv[0] + "\" still running after " +
                           std::to_string(options.timeout_s) + " s, killed (" + std::to_string(result.bytes) +
                           " bytes read)");
    }
    if (options.stop && options.stop()) {
      reap(true);
      return Status::Error("real pump: stopped, \"" + options.argv[0] + "\" killed (" +
                           std::to_string(result.bytes) + " bytes read)");
    }
    epoll_event ready{};
    const int wait_ms =
        static_cast<int>(options.stop ? std::min<long long>(left.count(), kStopPollMs) : left.count());
    int n = epoll_wait(epoll.get(), &ready, 1, wait_ms);
    const int64_t ready_ns = options.log_reads ? monotonic_ns() : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      reap(true);
      return errno_error("epoll_wait");
    }
    if (n == 0) continue;
    ssize_t got = read(out_read.get(), buffer.data(), buffer.size());
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (got < 0) {
      reap(true);
      return errno_error("read");
    }
    if (got == 0) break;  // every write end closed: end of stream
    const int64_t done_ns = options.log_reads ? monotonic_ns() : 0;
    ++result.reads;
    if (result.head.size() < 16) {
      result.head.append(reinterpret_cast<const char*>(buffer.data()),
                         std::min<size_t>(16 - result.head.size(), static_cast<size_t>(got)));
    }
    result.bytes += static_cast<uint64_t>(got);
    result.checksum.add(buffer.data(), static_cast<size_t>(got));
    if (options.side_band) side_band.add(buffer.data(), static_cast<size_t>(got));
    if (options.log_reads) {
      result.read_log.push_back(PumpRead{
          static_cast<double>(ready_ns - origin_ns) * 1e-9, static_cast<double>(done_ns - origin_ns) * 1e-9,
          static_cast<double>(monotonic_ns() - origin_ns) * 1e-9, static_cast<uint64_t>(got)});
    }
  }
  result.band1_packets = side_band.band1_packets();
  result.band1_bytes = side_band.band1_bytes();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  reap(false);
  if (options.own_process_group) kill(-child, SIGKILL);  // what it left running (its stdout closed)
  if (!write_log.empty()) {
    if (Status read = read_write_log(write_log, origin_ns, result); !read.ok()) return read;
    uint64_t recorded = 0;
    for (const ChildWrite& w : result.writes) recorded += w.result > 0 ? static_cast<uint64_t>(w.result) : 0;
    result.unrecorded_bytes = result.bytes > recorded ? result.bytes - recorded : 0;
  }
  return result;
}

std::string built_write_recorder() {
#ifdef PERFLAB_WRITE_RECORDER
  if (std::filesystem::exists(PERFLAB_WRITE_RECORDER)) return PERFLAB_WRITE_RECORDER;
#endif
  return "";
}

}  // namespace perflab::pipe
