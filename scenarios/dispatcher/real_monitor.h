// The Dispatcher's lock in real time, for the incident's real engine (real_incident.cpp): the twin of
// simulated_monitor.h. The real Dispatcher (models/dispatcher) calls enter() before each locked section
// and exit() once it released its own mutex; between the two the calling thread holds this monitor, a
// real std::mutex, while the section runs for real. So the sections are serialized exactly as in the sim
// (each its own monitor enter/exit, two per enqueue() and two per finished(), free in between), and what
// the sim charges as ops x ns_per_op is here the real time between timestamps taken around the lock.
//
// glibc's std::mutex hands off like a Java monitor (the sim's `lock = "barging"`): unlock frees it and
// wakes one blocked thread, and a thread already running may take it first.
//
// What it measures, as the sim does: a thread counts as blocked from a failed try_lock until it holds the
// lock (an uncontended enter is not a wait); hold runs from acquired to the release in exit().
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
  // One hold, for the tests' consistency checks (recorded when asked for).
  struct Hold {
    std::int64_t asked_ns, acquired_ns, released_ns;  // real::monotonic_ns()
    dispatcher::LockedSection section;
  };

  // `cost` only sets how the tally counts the working set (its cache sizes): nothing is charged here.
  explicit RealMonitor(const LockCostModel& cost = {}, bool record_holds = false)
      : cost_(cost), record_holds_(record_holds) {}
  RealMonitor(const RealMonitor&) = delete;
  RealMonitor& operator=(const RealMonitor&) = delete;

  void enter();
  void exit(const dispatcher::LockedSectionReport& section);
  // Puts `dispatcher`'s every locked section under this monitor.
  void guard(dispatcher::Dispatcher& dispatcher);

  // Read these once the threads that use the monitor are done (or hold it).
  int blocked_max() const { return blocked_max_.load(); }
  int blocked_now() const { return blocked_.load(); }
  double wait_total() const { return static_cast<double>(wait_total_ns_) * 1e-9; }
  double hold_max() const { return static_cast<double>(hold_max_ns_) * 1e-9; }
  double hold_total() const { return static_cast<double>(hold_total_ns_) * 1e-9; }
  uint64_t ops_total() const { return ops_total_; }
  uint64_t acquisitions() const { return acquisitions_; }
  // The sections' terms as the cost model counts them, for fitting its constants to hold_total().
  const LockCostTally& tally() const { return tally_; }
  const std::vector<Hold>& holds() const { return holds_; }

 private:
  const LockCostModel cost_;
  const bool record_holds_;
  std::mutex mutex_;
  std::atomic<int> blocked_{0};
  std::atomic<int> blocked_max_{0};
  // Written by the holder only, under mutex_:
  std::int64_t asked_ns_ = 0;
  std::int64_t acquired_ns_ = 0;
  std::int64_t wait_total_ns_ = 0;
  std::int64_t hold_max_ns_ = 0;
  std::int64_t hold_total_ns_ = 0;
  uint64_t ops_total_ = 0;
  uint64_t acquisitions_ = 0;
  std::vector<Hold> holds_;
  std::thread::id last_holder_;       // the thread that held the lock last
  std::int64_t last_release_ns_ = 0;  // when it released it (0: the first section comes after a long quiet)
  LockCostTally tally_;
};

}  // namespace perflab::dispatcher_study
