// RealMonitor; see real_monitor.h.
#include "scenarios/dispatcher/real_monitor.h"

#include <algorithm>

#include "sim/real/deadline_sleeper.h"

namespace perflab::dispatcher_study {

void RealMonitor::guard(dispatcher::Dispatcher& dispatcher) {
  dispatcher.set_lock_entry_hook([this] { enter(); });
  dispatcher.set_lock_observer([this](const dispatcher::LockedSectionReport& section) { exit(section); });
}

void RealMonitor::enter() {
  const std::int64_t asked = real::monotonic_ns();
  bool waited = false;
  if (!mutex_.try_lock()) {
    waited = true;
    const int now_blocked = blocked_.fetch_add(1) + 1;
    int seen = blocked_max_.load();
    while (now_blocked > seen && !blocked_max_.compare_exchange_weak(seen, now_blocked)) {
    }
    mutex_.lock();
    blocked_.fetch_sub(1);
  }
  acquired_ns_ = real::monotonic_ns();
  asked_ns_ = asked;
  if (waited) wait_total_ns_ += acquired_ns_ - asked;
  ++acquisitions_;
}

void RealMonitor::exit(const dispatcher::LockedSectionReport& section) {
  const std::int64_t released = real::monotonic_ns();
  const std::int64_t hold = released - acquired_ns_;
  hold_total_ns_ += hold;
  hold_max_ns_ = std::max(hold_max_ns_, hold);
  ops_total_ += section.ops;
  const std::thread::id holder = std::this_thread::get_id();
  tally_.add(cost_, section,
             SectionContext::of(holder != last_holder_,
                                static_cast<double>(acquired_ns_ - last_release_ns_) * 1e-9));
  last_holder_ = holder;
  last_release_ns_ = released;
  if (record_holds_) holds_.push_back({asked_ns_, acquired_ns_, released, section.section});
  mutex_.unlock();
}

}  // namespace perflab::dispatcher_study
