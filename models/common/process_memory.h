// How a benchmark process treats memory it frees: shared by the harness's micro engine and the Google
// Benchmark binaries under tests/, so that both measure the same way.
#pragma once

#include <malloc.h>

namespace perflab {

// glibc hands freed memory back to the kernel (it trims the heap top and unmaps large blocks), so a
// repetition can pay page faults for memory the previous one freed. Whether it does hangs on where one
// long-lived small block happens to lie: the same dispatcher code measured 8 ms with ~100 page faults per
// repetition and 16 ms with ~3,200. A long-running process, like the JVM behind the seed PRs' numbers,
// keeps its heap; a benchmark process calls this once, before its first repetition, to do the same.
inline void keep_freed_memory_in_process() {
  constexpr int kLargestHeapAllocation = 32 << 20;  // glibc's ceiling for M_MMAP_THRESHOLD on 64-bit
  mallopt(M_MMAP_THRESHOLD, kLargestHeapAllocation);
  mallopt(M_TRIM_THRESHOLD, -1);  // -1: never trim
}

}  // namespace perflab
