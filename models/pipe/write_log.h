// The file perflab_write_recorder (write_recorder.cpp) records a child's writes on stdout into and the real
// pump (real_pump.cpp) reads after the child ended: a header, then one record per write, in the order of
// the writes. The recorder maps the file into memory (MAP_SHARED) and stores each record as the write
// returns, so the records are in the file however the child ends (exit, _exit as dash leaves, a signal).
#pragma once

#include <cstddef>
#include <cstdint>

namespace perflab::pipe {

struct WriteLogHeader {
  uint64_t magic;   // kWriteLogMagic once the recorder has started recording
  uint64_t writes;  // writes made: the first kMaxWriteRecords of them follow, the others were dropped
};

struct WriteLogRecord {
  int64_t start_ns;  // CLOCK_MONOTONIC when write(2) was called
  int64_t end_ns;    // and when it returned
  int64_t result;    // what it returned: bytes written, or -errno
};

constexpr uint64_t kWriteLogMagic = 0x31474f4c57464c50;  // "PLFWLOG1"
constexpr size_t kMaxWriteRecords = size_t{1} << 18;     // the file is sparse: unused records cost nothing
constexpr size_t kWriteLogBytes = sizeof(WriteLogHeader) + kMaxWriteRecords * sizeof(WriteLogRecord);

}  // namespace perflab::pipe
