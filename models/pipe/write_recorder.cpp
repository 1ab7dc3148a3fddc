// perflab_write_recorder: a preloaded library (LD_PRELOAD) that records, inside the child the real pump
// runs, when each write(2) on its stdout started and returned and what it returned, so a measured run
// also yields its own write trace (real_pump.h). The cost per write is two vDSO clock reads and a store,
// against ~30 us per syscall for strace, so the run keeps its own timing.
//
// Only the process that finds PERFLAB_WRITE_LOG in its environment records; it removes the variable, so
// the processes it starts (upload-pack's pack-objects) load the library but record nothing. The records
// are kept in memory and written to that file at exit: "start_ns,end_ns,result" per write (CLOCK_MONOTONIC,
// result as write returned it, -errno on an error). Writes glibc makes itself (stdio flushes call its
// internal __write, not this write) would not pass through here, so the recording process's stdout FILE is
// replaced by one (fopencookie) that writes through it, buffered as glibc buffers a stdout that is a pipe: a
// block of the pipe's st_blksize, flushed when full and at exit (an atexit handler, which runs before
// glibc's own final flush). A program that calls fileno(stdout) gets -1 from it; one that wrote to stdout
// from a constructor before this one, or without libc (Go), is not recorded: the pump reports the bytes it
// read that no record accounts for.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
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

ssize_t recorded_write(int fd, const void* data, size_t size);

// The stdout FILE's writes, through recorded_write: as many write(2) calls as it takes (as glibc's own
// _IO_new_file_write does), each recorded.
ssize_t stdout_cookie_write(void* /*cookie*/, const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = recorded_write(1, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return done > 0 ? static_cast<ssize_t>(done) : -1;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

void record_stdio() {
  struct stat st {};
  if (fstat(1, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  cookie_io_functions_t functions{};
  functions.write = stdout_cookie_write;
  FILE* file = fopencookie(nullptr, "w", functions);
  if (file == nullptr) return;
  static char buffer[1 << 20];
  const size_t block = st.st_blksize > 0 && static_cast<size_t>(st.st_blksize) <= sizeof(buffer)
                           ? static_cast<size_t>(st.st_blksize)
                           : 4096;
  setvbuf(file, buffer, _IOFBF, block);
  stdout = file;
  atexit([] { fflush(stdout); });
}

__attribute__((constructor)) void start_recording() {
  const char* path = std::getenv("PERFLAB_WRITE_LOG");
  if (path == nullptr || std::strlen(path) >= sizeof(log_path)) return;
  std::strcpy(log_path, path);
  unsetenv("PERFLAB_WRITE_LOG");
  next_write();
  active = true;
  record_stdio();
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

ssize_t recorded_write(int fd, const void* data, size_t size) {
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

}  // namespace

extern "C" ssize_t write(int fd, const void* data, size_t size) {
  return recorded_write(fd, data, size);
}
