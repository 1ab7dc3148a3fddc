// perflab_write_recorder: a preloaded library (LD_PRELOAD) that records, inside the child the real pump
// runs, when each write(2) on its stdout started and returned and what it returned, so a measured run
// also yields its own write trace (real_pump.h). The cost per write is two vDSO clock reads and a store,
// against ~30 us per syscall for strace, so the run keeps its own timing.
//
// Only the process that finds PERFLAB_WRITE_LOG in its environment records; it removes the variable, so
// the processes it starts (upload-pack's pack-objects) load the library but record nothing, and a process
// it forks stops recording (pthread_atfork). Each record is stored as the write returns into the log file
// mapped in memory (write_log.h), so nothing is lost however the program ends: exit, _exit (dash) or a
// signal. Writes glibc makes itself (stdio flushes call its internal __write, not this write) would not
// pass through here, so the recording process's stdout FILE is replaced by one (fopencookie) that writes
// through it, buffered as glibc buffers a stdout that is a pipe: a block of the pipe's st_blksize, flushed
// when full and at exit (an atexit handler, which runs before glibc's own final flush). fileno() of that
// FILE says 1, as for the FILE it replaces (CPython builds sys.stdout on fileno(stdout)). A program that
// wrote to stdout from a constructor before this one, or without libc (Go, a static binary), is not
// recorded: the pump reports the bytes it read that no record accounts for.
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "write_log.h"

namespace {

using perflab::pipe::WriteLogHeader;
using perflab::pipe::WriteLogRecord;
using WriteFunction = ssize_t (*)(int, const void*, size_t);
using FilenoFunction = int (*)(FILE*);

WriteLogHeader* header = nullptr;   // the mapped log file
WriteLogRecord* records = nullptr;  // right after the header
bool active = false;
FILE* recorded_stdout = nullptr;  // the FILE that replaced stdout
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
  recorded_stdout = file;
  stdout = file;
  atexit([] { fflush(stdout); });
}

// The log file mapped in memory, its header marked; false if it cannot be (then nothing is recorded).
bool map_log(const char* path) {
  const int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  const bool sized = ftruncate(fd, static_cast<off_t>(perflab::pipe::kWriteLogBytes)) == 0;
  void* mapped = sized
                     ? mmap(nullptr, perflab::pipe::kWriteLogBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                     : MAP_FAILED;
  close(fd);
  if (mapped == MAP_FAILED) return false;
  header = static_cast<WriteLogHeader*>(mapped);
  records = reinterpret_cast<WriteLogRecord*>(header + 1);
  *header = WriteLogHeader{perflab::pipe::kWriteLogMagic, 0};
  return true;
}

__attribute__((constructor)) void start_recording() {
  const char* path = std::getenv("PERFLAB_WRITE_LOG");
  if (path == nullptr) return;
  const bool mapped = map_log(path);
  unsetenv("PERFLAB_WRITE_LOG");
  if (!mapped) return;
  next_write();
  pthread_atfork(nullptr, nullptr, [] { active = false; });  // a forked child's writes are not ours
  active = true;
  record_stdio();
}

ssize_t recorded_write(int fd, const void* data, size_t size) {
  WriteFunction forward = next_write();
  if (!active || fd != 1) return forward(fd, data, size);
  const int64_t start = monotonic_ns();
  ssize_t result = forward(fd, data, size);
  const int saved_errno = errno;
  const int64_t end = monotonic_ns();
  const uint64_t index = __atomic_fetch_add(&header->writes, 1, __ATOMIC_RELAXED);
  if (index < perflab::pipe::kMaxWriteRecords)
    records[index] = WriteLogRecord{start, end, result >= 0 ? result : -static_cast<int64_t>(saved_errno)};
  errno = saved_errno;
  return result;
}

// fileno() of the FILE that replaced stdout: its descriptor, 1 (a cookie FILE has none of its own).
int recorded_fileno(FILE* stream, const char* name) {
  if (stream != nullptr && stream == recorded_stdout) return 1;
  static FilenoFunction next[2] = {nullptr, nullptr};
  const int which = name[6] == '\0' ? 0 : 1;  // "fileno" or "fileno_unlocked"
  if (next[which] == nullptr) next[which] = reinterpret_cast<FilenoFunction>(dlsym(RTLD_NEXT, name));
  return next[which](stream);
}

}  // namespace

extern "C" ssize_t write(int fd, const void* data, size_t size) {
  return recorded_write(fd, data, size);
}

extern "C" int fileno(FILE* stream) {
  return recorded_fileno(stream, "fileno");
}

extern "C" int fileno_unlocked(FILE* stream) {
  return recorded_fileno(stream, "fileno_unlocked");
}
