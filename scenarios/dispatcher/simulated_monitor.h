// The Dispatcher's Java monitor in simulated time, for the incident simulation (incident.cpp).
//
// The real Dispatcher (models/dispatcher) tells us before each locked section takes its lock (enter) and,
// after it released it, how many elements the section touched (exit). Between the two the simulated thread
// holds this monitor for what the section costs by the lock cost model (lock_cost_model.h): a term per
// section, one more when the lock moved from another thread, and the elements touched at a cost that
// follows the working set. Each section is its own monitor
// enter/exit, as in OkHttp 3.12/3.13 where enqueue() and finished() are two synchronized blocks each
// (Dispatcher.java 3.13.0 lines 134 and 187 for enqueue, 228 and 187 for finished) with the monitor free in
// between.
//
// Who gets a just-released monitor is the hand-off policy:
//   barging  like a HotSpot monitor: release frees the monitor and wakes the longest-blocked thread, which
//            must be scheduled again before it can take it; a thread already running at that instant (the
//            releaser going on to its next section, a caller arriving) takes it first, and the woken
//            thread blocks again at the head of the queue. The wake-up itself costs no simulated time.
//   glibc    barging as glibc's std::mutex does it, the real engine's lock (real_monitor.h): a woken thread
//            that lost the race calls futex_wait again (nptl/lowlevellock.c, __lll_lock_wait) and the
//            kernel queues it behind every thread already blocked, where a Java monitor keeps its place.
//   fifo     ownership passes straight to the longest-blocked thread, so a releaser that wants the
//            monitor again queues behind everyone already blocked (the s4u::Mutex the simulation used
//            before, and java.util.concurrent's fair ReentrantLock).
#pragma once

#include <cstdint>
#include <deque>

#include <simgrid/s4u.hpp>

#include "models/dispatcher/dispatcher.h"
#include "scenarios/dispatcher/lock_cost_model.h"
#include "scenarios/dispatcher/lock_hand_off.h"

namespace perflab {
class Timeline;
}

namespace perflab::dispatcher_study {

class SimulatedMonitor {
 public:
  // `timeline` may be null.
  SimulatedMonitor(LockHandOff hand_off, const LockCostModel& cost, Timeline* timeline);
  SimulatedMonitor(const SimulatedMonitor&) = delete;
  SimulatedMonitor& operator=(const SimulatedMonitor&) = delete;

  // Takes the monitor as the current simulated thread, blocking until it gets it.
  void enter();
  // Holds the monitor for the section's cost, then releases it.
  void exit(const dispatcher::LockedSectionReport& section);
  // Puts `dispatcher`'s every locked section under this monitor.
  void guard(dispatcher::Dispatcher& dispatcher);

  int blocked_max() const { return blocked_max_; }   // most threads blocked at once
  double wait_total() const { return wait_total_; }  // seconds, all threads together
  double hold_max() const { return hold_max_; }      // longest single section
  double hold_total() const { return hold_total_; }  // seconds the monitor was held
  uint64_t ops_total() const { return ops_total_; }  // elements touched under it
  uint64_t acquisitions() const { return acquisitions_; }
  const LockCostTally& tally() const { return tally_; }  // what the cost model charged, term by term

 private:
  struct Waiter {
    simgrid::s4u::SemaphorePtr wake = simgrid::s4u::Semaphore::create(0);
    bool owns = false;  // fifo: the releaser handed the monitor over
  };
  void release();

  const LockHandOff hand_off_;
  const LockCostModel cost_;
  Timeline* timeline_;
  long last_holder_ = -1;    // the actor that held the monitor last
  double last_release_ = 0;  // when it released it (none before the first section: kFirstSectionGapS)
  LockCostTally tally_;
  bool held_ = false;
  std::deque<Waiter*> blocked_queue_;  // longest-blocked first
  int blocked_ = 0;                    // threads waiting right now (a woken one until it gets in)
  int blocked_max_ = 0;
  double wait_total_ = 0;
  double hold_max_ = 0;
  double hold_total_ = 0;
  uint64_t ops_total_ = 0;
  uint64_t acquisitions_ = 0;
};

}  // namespace perflab::dispatcher_study
