// perflab_write_recorder: a preloaded library (LD_PRELOAD) that records, inside the child the real pump
// runs, when each write(2) on its stdout started and returned and what it returned, so a measured run
// also yields its own write trace (real_pump.h). The cost per write is two vDSO clock reads and a store,
// against ~30 us per syscall for strace, so the run keeps its own timing.
//
// Only the process that finds PERFLAB_WRITE_LOG in its environment records; it removes the variable, so
// the processes it starts (upload-pack's pack-objects) load the library but record nothing. The records
// are kept in memory and written to that file at exit: "start_ns,end_ns,result" per write (CLOCK_MONOTONIC,
// result as write returned it, -errno on an error). Writes glibc makes itself (stdio flushes) do not pass
// through here; the pump reports the bytes it read that no record accounts for.
#include <dlfcn.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using WriteFunction = ssize_t (*)(int, const void*, size_t);

struct Record {
  int64_t start_ns;
  int64_t end_ns;
  int64_t result;
};

constexpr size_t kMaxRecords = size_t{1} << 18;  // untouched pages cost nothing
Record records[kMaxRecords];
size_t recorded = 0;
size_t dropped = 0;
char log_path[4096];
bool active = false;
WriteFunction real_write = nullptr;

int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

WriteFunction next_write() {
  if (real_write == nullptr) real_write = reinterpret_cast<WriteFunction>(dlsym(RTLD_NEXT, "write"));
  return real_write;
}

__attribute__((constructor)) void start_recording() {
  const char* path = std::getenv("PERFLAB_WRITE_LOG");
  if (path == nullptr || std::strlen(path) >= sizeof(log_path)) return;
  std::strcpy(log_path, path);
  unsetenv("PERFLAB_WRITE_LOG");
  next_write();
  active = true;
}

// Written in large pieces: the child is still running, and its stdout open, until this is done.
__attribute__((destructor)) void save_records() {
  if (!active) return;
  active = false;
  int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  static char text[1 << 16];
  size_t used = 0;
  auto flush = [&] {
    next_write()(fd, text, used);
    used = 0;
  };
  used += static_cast<size_t>(
      std::snprintf(text, sizeof(text), "# writes on fd 1: %zu recorded, %zu dropped\n", recorded, dropped));
  for (size_t i = 0; i < recorded; ++i) {
    if (sizeof(text) - used < 80) flush();
    used += static_cast<size_t>(std::snprintf(
        text + used, sizeof(text) - used, "%lld,%lld,%lld\n", static_cast<long long>(records[i].start_ns),
        static_cast<long long>(records[i].end_ns), static_cast<long long>(records[i].result)));
  }
  flush();
  close(fd);
}

}  // namespace

extern "C" ssize_t write(int fd, const void* data, size_t size) {
  WriteFunction forward = next_write();
  if (!active || fd != 1) return forward(fd, data, size);
  const int64_t start = monotonic_ns();
  ssize_t result = forward(fd, data, size);
  const int saved_errno = errno;
  const int64_t end = monotonic_ns();
  if (recorded < kMaxRecords) {
    records[recorded++] = Record{start, end, result >= 0 ? result : -static_cast<int64_t>(saved_errno)};
  } else {
    ++dropped;
  }
  errno = saved_errno;
  return result;
}
