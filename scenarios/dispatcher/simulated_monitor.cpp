// SimulatedMonitor; see simulated_monitor.h. Simulated threads are SimGrid actors, which run one at a time
// between simcalls, so the monitor's own state needs no lock.
#include "scenarios/dispatcher/simulated_monitor.h"

#include <algorithm>
#include <string>

#include "sim/engines/simgrid_world.h"
#include "sim/engines/timeline.h"

namespace perflab::dispatcher_study {

namespace s4u = simgrid::s4u;

SimulatedMonitor::SimulatedMonitor(LockHandOff hand_off, const LockCostModel& cost, Timeline* timeline)
    : hand_off_(hand_off), cost_(cost), timeline_(timeline) {}

void SimulatedMonitor::guard(dispatcher::Dispatcher& dispatcher) {
  dispatcher.set_lock_entry_hook([this] { enter(); });
  dispatcher.set_lock_observer([this](const dispatcher::LockedSectionReport& section) { exit(section); });
}

void SimulatedMonitor::enter() {
  ++acquisitions_;
  if (!held_) {  // free: taken at once, whoever is blocked (barging), or nobody is (fifo hands over)
    held_ = true;
    return;
  }
  const double asked = SimGridWorld::now();
  ++blocked_;
  blocked_max_ = std::max(blocked_max_, blocked_);
  Waiter self;
  blocked_queue_.push_back(&self);
  while (true) {
    self.wake->acquire();
    if (self.owns) break;  // fifo: handed over
    // barging: woken with the monitor free. Be scheduled again first: a thread running at this instant
    // (the releaser's next section, an arriving caller) gets there before us.
    s4u::this_actor::yield();
    if (!held_) {
      held_ = true;
      break;
    }
    // Lost the race: block again. A Java monitor keeps the thread where it was in line; glibc's lock
    // calls futex_wait again (nptl/lowlevellock.c, __lll_lock_wait), and the kernel queues the thread
    // behind every waiter already there.
    if (hand_off_ == LockHandOff::kGlibc) {
      blocked_queue_.push_back(&self);
    } else {
      blocked_queue_.push_front(&self);
    }
  }
  --blocked_;
  wait_total_ += SimGridWorld::now() - asked;
}

void SimulatedMonitor::exit(const dispatcher::LockedSectionReport& section) {
  const double start = SimGridWorld::now();
  const long holder = s4u::this_actor::get_pid();
  const bool first = last_holder_ == -1;
  const SectionContext where =
      SectionContext::of(holder != last_holder_, first ? kFirstSectionGapS : start - last_release_);
  last_holder_ = holder;
  const double hold = cost_.hold_s(section, where);
  tally_.add(cost_, section, where);
  s4u::this_actor::sleep_for(hold);
  last_release_ = SimGridWorld::now();
  hold_max_ = std::max(hold_max_, hold);
  hold_total_ += hold;
  ops_total_ += section.ops;
  if (timeline_ != nullptr) {
    timeline_->span(s4u::this_actor::get_name(), dispatcher::kLockedSectionNames.name(section.section), start,
                    SimGridWorld::now(),
                    std::to_string(section.ops) + " ops, " + std::to_string(section.running_calls) +
                        " running, " + std::to_string(section.ready_calls) + " ready");
  }
  release();
}

void SimulatedMonitor::release() {
  if (blocked_queue_.empty()) {
    held_ = false;
    return;
  }
  Waiter* next = blocked_queue_.front();
  blocked_queue_.pop_front();
  if (hand_off_ == LockHandOff::kFifo) {
    next->owns = true;  // held_ stays true: nobody can take it in between
  } else {
    held_ = false;
  }
  next->wake->release();
}

}  // namespace perflab::dispatcher_study
