// The Dispatcher's lock in real time, for the incident's real engine (real_incident.cpp): the twin of
// simulated_monitor.h. The real Dispatcher (models/dispatcher) calls enter() before each locked section
// and exit() once it released its own mutex; between the two the calling thread holds this monitor, a
// real std::mutex, while the section runs for real. So the sections are serialized exactly as in the sim
// (each its own monitor enter/exit, two per enqueue() and two per finished(), free in between), and what
// the sim charges by the lock cost model is here the real time between timestamps taken around the lock.
//
// glibc's std::mutex barges like a Java monitor: unlock frees it and wakes one blocked thread, and a thread
// already running may take it first; the woken thread, if it lost, blocks again behind every other waiter
// (the sim's `lock = "glibc"`, which the validations' sims run).
//
// What it measures, as the sim does: a thread counts as blocked from a failed try_lock until it holds the
// lock (an uncontended enter is not a wait); hold runs from acquired to the release in exit().
//
// Under the lock it only stores the section's raw record (timestamps, thread, the Dispatcher's report) in
// a vector sized and written once up front (no allocation or page fault under the lock); every figure —
// totals, the longest hold, the cost model's tally with its logarithms — is computed from the records once
// the run is over, so the instrumentation adds no work to the sections it measures beyond two clock reads and
// one store.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "models/dispatcher/dispatcher.h"
#include "scenarios/dispatcher/lock_cost_model.h"

namespace perflab::dispatcher_study {

class RealMonitor {
 public:
  // One section as it happened.
  struct Hold {
    std::int64_t asked_ns, acquired_ns, released_ns;  // real::monotonic_ns()
    bool waited;                                      // found the lock taken
    std::thread::id thread;
    dispatcher::LockedSectionReport section;
  };

  // `cost` only sets how the tally counts the working set (its cache sizes): nothing is charged here.
  // `expected_sections`: records made up front; a section beyond them appends one under the lock.
  explicit RealMonitor(const LockCostModel& cost = {}, size_t expected_sections = 0)
      : cost_(cost), records_(expected_sections) {}
  // A diagnostic for the lock cost model (NOTES.md, "Sections, one by one"): with the environment variable
  // PERFLAB_DISPATCHER_SECTION_TRACE=DIR set, writes every section's record, in the order the sections held
  // the lock, to DIR/sections-<pid>-<n>.csv once the run is over (never during it).
  ~RealMonitor();
  RealMonitor(const RealMonitor&) = delete;
  RealMonitor& operator=(const RealMonitor&) = delete;

  void enter();
  void exit(const dispatcher::LockedSectionReport& section);
  // Puts `dispatcher`'s every locked section under this monitor.
  void guard(dispatcher::Dispatcher& dispatcher);

  // Read these once the threads that use the monitor are done (or hold it).
  int blocked_max() const { return blocked_max_.load(); }
  int blocked_now() const { return blocked_.load(); }
  double wait_total() const;
  double hold_max() const;
  double hold_total() const;
  uint64_t ops_total() const;
  uint64_t acquisitions() const { return count_; }
  // The sections' terms as the cost model counts them (SectionContext::of, the same rule as the sim's),
  // for fitting its constants to hold_total().
  LockCostTally tally() const;
  std::vector<Hold> holds() const { return {records_.begin(), records_.begin() + static_cast<long>(count_)}; }

 private:
  const LockCostModel cost_;
  std::mutex mutex_;
  std::atomic<int> blocked_{0};
  std::atomic<int> blocked_max_{0};
  // Written by the holder only, under mutex_:
  std::int64_t asked_ns_ = 0;
  std::int64_t acquired_ns_ = 0;
  bool waited_ = false;
  std::vector<Hold> records_;  // the first count_ are this run's sections, in the order they held the lock
  size_t count_ = 0;
};

}  // namespace perflab::dispatcher_study
