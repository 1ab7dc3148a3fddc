// How a benchmark process treats memory it frees: the micro engine's policy, which the Google Benchmark
// binaries under tests/ follow too so that both measure the same way.
#pragma once

#include <malloc.h>

namespace perflab {

// glibc hands freed memory back to the kernel (it trims the heap top and unmaps large blocks), so a
// repetition can pay page faults for memory the previous one freed. Whether it does hangs on where one
// long-lived small block happens to lie, and page faults can double a short workload's time. A long-running
// process, like the JVM behind the seed PRs' numbers, keeps its heap; a benchmark process calls this once,
// before its first repetition, to do the same.
inline void keep_freed_memory_in_process() {
  constexpr int kLargestHeapAllocation = 32 << 20;  // glibc's ceiling for M_MMAP_THRESHOLD on 64-bit
  mallopt(M_MMAP_THRESHOLD, kLargestHeapAllocation);
  mallopt(M_TRIM_THRESHOLD, -1);  // -1: never trim
}

}  // namespace perflab
