// RealMonitor; see real_monitor.h.
#include "scenarios/dispatcher/real_monitor.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include <unistd.h>

#include "sim/engines/real/deadline_sleeper.h"

namespace perflab::dispatcher_study {

RealMonitor::~RealMonitor() {
  const char* dir = std::getenv("PERFLAB_DISPATCHER_SECTION_TRACE");
  if (dir == nullptr || count_ == 0) return;
  static std::atomic<int> written{0};
  const std::string path = std::string(dir) + "/sections-" + std::to_string(getpid()) + "-" +
                           std::to_string(written.fetch_add(1)) + ".csv";
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) return;
  std::fprintf(out, "i,section,ops,running,ready,thread,waited,asked_ns,acquired_ns,released_ns\n");
  for (size_t i = 0; i < count_; ++i) {
    const Hold& h = records_[i];
    std::fprintf(out, "%zu,%s,%llu,%llu,%llu,%zu,%d,%lld,%lld,%lld\n", i,
                 std::string(dispatcher::kLockedSectionNames.name(h.section.section)).c_str(),
                 static_cast<unsigned long long>(h.section.ops),
                 static_cast<unsigned long long>(h.section.running_calls),
                 static_cast<unsigned long long>(h.section.ready_calls),
                 std::hash<std::thread::id>{}(h.thread), h.waited ? 1 : 0, static_cast<long long>(h.asked_ns),
                 static_cast<long long>(h.acquired_ns), static_cast<long long>(h.released_ns));
  }
  std::fclose(out);
}

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
  waited_ = waited;
}

void RealMonitor::exit(const dispatcher::LockedSectionReport& section) {
  const std::int64_t released = real::monotonic_ns();
  const Hold hold{asked_ns_, acquired_ns_, released, waited_, std::this_thread::get_id(), section};
  if (count_ < records_.size()) {
    records_[count_] = hold;
  } else {
    records_.push_back(hold);
  }
  ++count_;
  mutex_.unlock();
}

double RealMonitor::wait_total() const {
  std::int64_t total = 0;
  for (size_t i = 0; i < count_; ++i) {
    const Hold& h = records_[i];
    if (h.waited) total += h.acquired_ns - h.asked_ns;
  }
  return static_cast<double>(total) * 1e-9;
}

double RealMonitor::hold_max() const {
  std::int64_t longest = 0;
  for (size_t i = 0; i < count_; ++i) {
    longest = std::max(longest, records_[i].released_ns - records_[i].acquired_ns);
  }
  return static_cast<double>(longest) * 1e-9;
}

double RealMonitor::hold_total() const {
  std::int64_t total = 0;
  for (size_t i = 0; i < count_; ++i) total += records_[i].released_ns - records_[i].acquired_ns;
  return static_cast<double>(total) * 1e-9;
}

uint64_t RealMonitor::ops_total() const {
  uint64_t total = 0;
  for (size_t i = 0; i < count_; ++i) total += records_[i].section.ops;
  return total;
}

LockCostTally RealMonitor::tally() const {
  LockCostTally tally;
  for (size_t i = 0; i < count_; ++i) {
    const Hold& h = records_[i];
    // The first section comes after a long quiet, as in the sim; later ones after the previous release.
    const bool moved = i == 0 || h.thread != records_[i - 1].thread;
    const double gap_s =
        i == 0 ? kFirstSectionGapS : static_cast<double>(h.acquired_ns - records_[i - 1].released_ns) * 1e-9;
    tally.add(cost_, h.section, SectionContext::of(moved, gap_s));
  }
  return tally;
}

}  // namespace perflab::dispatcher_study
