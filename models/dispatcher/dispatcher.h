// The OkHttp Dispatcher, in C++: decides when each asynchronous call runs, under two limits — at most
// maxRequests async calls running at once, and at most maxRequestsPerHost of them to any one host
// (WebSocket calls are exempt from the host limit) — and keeps the list of running synchronous calls.
//
// It is the real mechanism of the `dispatcher` study: tests drive it with real threads, the micro engine
// with a recording executor, the simulator with simulated workers. How per-host limits are tracked is
// the Strategy chosen at construction (scan = 3.12.0, counter = 3.13+, indexed = perflab); all three
// promote the same calls in the same order.
//
// Thread-safe: one mutex guards all state, and no callback (executor, call failure, idle callback, lock
// observer) ever runs while it is held. Like OkHttp, enqueue() and finished() each take the lock twice:
// once to change the lists, once in promote_and_execute(), and releases it in between. Every locked section
// tells the lock observer before it takes the lock and, once it has released it, how many elements it
// touched (rules in op_counter.h), so a simulator can put each section under its own simulated lock and
// charge its hold time as ops x ns_per_op.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <vector>

#include "models/common/enum_names.h"
#include "models/common/status.h"
#include "models/dispatcher/async_call_tracker.h"
#include "models/dispatcher/call.h"
#include "models/dispatcher/executor.h"
#include "models/dispatcher/strategy.h"

namespace perflab::dispatcher {

// Which method took the lock.
enum class LockedSection {
  kEnqueue,    // enqueue(): add to the ready queue (counter: also the search for a call to the same host)
  kPromote,    // promote_and_execute(): the promotion loop
  kFinished,   // finished()/finished_sync(): remove from a running list
  kExecuted,   // executed(): add a synchronous call
  kSetLimit,   // set_max_requests()/set_max_requests_per_host(): store the new limit
  kCancelAll,  // cancel_all()
};
inline const EnumNames<LockedSection> kLockedSectionNames{"locked section",
                                                          {{LockedSection::kEnqueue, "enqueue"},
                                                           {LockedSection::kPromote, "promote"},
                                                           {LockedSection::kFinished, "finished"},
                                                           {LockedSection::kExecuted, "executed"},
                                                           {LockedSection::kSetLimit, "set_limit"},
                                                           {LockedSection::kCancelAll, "cancel_all"}}};

struct LockedSectionReport {
  LockedSection section;
  uint64_t ops;            // elements touched while the lock was held
  uint64_t running_calls;  // async calls running when the section took the lock: the list every per-host
                           // count walks, which a cost model may charge by (lock_cost_model.h)
  uint64_t ready_calls;    // async calls waiting then
};

// Called right after each locked section releases the lock, on the thread that held it.
using LockObserver = std::function<void(const LockedSectionReport&)>;
// Called right before each locked section takes the lock, on the thread that will hold it.
using LockEntryHook = std::function<void()>;

class Dispatcher {
 public:
  static constexpr int kDefaultMaxRequests = 64;
  static constexpr int kDefaultMaxRequestsPerHost = 5;

  // `executor` must outlive the Dispatcher.
  Dispatcher(Executor& executor, Strategy strategy);
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  Strategy strategy() const { return strategy_; }

  // Limits must be at least 1. Changing one promotes ready calls immediately.
  Status set_max_requests(int max_requests);
  Status set_max_requests_per_host(int max_requests_per_host);
  int max_requests() const;
  int max_requests_per_host() const;

  // Runs (outside the lock) each time a finished() leaves no call running; nullptr clears it.
  void set_idle_callback(std::function<void()> idle_callback);
  // Set these before the Dispatcher is shared between threads; they are read without the lock. Every
  // section that reports to the observer calls the entry hook first (the snapshot accessors below do
  // neither).
  void set_lock_observer(LockObserver observer) { lock_observer_ = std::move(observer); }
  void set_lock_entry_hook(LockEntryHook hook) { lock_entry_hook_ = std::move(hook); }

  // Queues an async call and promotes; promoted calls go to the executor before this returns. Errors:
  // a null call, or a call already enqueued or executed.
  Status enqueue(CallPtr call);
  // An async call handed out by the executor is done (whoever ran it calls this): frees its slot,
  // promotes, and runs the idle callback if nothing is running any more. Error: the call was not running.
  Status finished(const Call& call);

  // A synchronous call started / ended on the caller's thread. Sync calls are listed as running but
  // never limited and never counted per host.
  Status executed(CallPtr call);
  Status finished_sync(const Call& call);

  // Cancels every queued and running call. Lists do not change: a running call keeps its slot until it
  // is finished, a queued call is still promoted (and its runner sees it is cancelled).
  void cancel_all();

  // Snapshots: ready async calls in FIFO order, running async calls in promotion order.
  std::vector<CallPtr> ready_async_calls() const;
  std::vector<CallPtr> running_async_calls() const;
  std::vector<CallPtr> running_sync_calls() const;
  size_t queued_calls_count() const;
  size_t running_calls_count() const;  // async + sync

  // Elements touched under the lock since construction, all sections together, and how many times the
  // lock was taken.
  uint64_t ops_under_lock() const;
  uint64_t locked_sections() const;

 private:
  struct Promotion {
    std::vector<CallPtr> calls;
    bool is_running;
  };
  using IdleCallback = std::shared_ptr<const std::function<void()>>;

  // promoteAndExecute(): promote under the lock, hand the promoted calls to the executor outside it.
  // Returns whether any call (async or sync) is running.
  bool promote_and_execute();
  Promotion promote();
  // Hands `pending` to the executor in order, and the calls that rejections promote after them;
  // empties `pending`.
  void execute_on_executor(std::vector<CallPtr>& pending);
  Status finish(const Call& call, bool sync);
  // The locked half of finish(): removes the call and fetches the idle callback.
  Status remove_running(const Call& call, bool sync, IdleCallback& idle_callback);
  // Every reported section starts with begin_section() and ends with end_section().
  std::unique_lock<std::mutex> begin_section();
  void end_section(std::unique_lock<std::mutex>& lock, LockedSection section, const OpCounter& ops);
  size_t running_calls_count_locked() const;

  const Strategy strategy_;
  Executor& executor_;
  LockObserver lock_observer_;
  LockEntryHook lock_entry_hook_;

  mutable std::mutex mutex_;
  int max_requests_ = kDefaultMaxRequests;
  int max_requests_per_host_ = kDefaultMaxRequestsPerHost;
  IdleCallback idle_callback_;
  std::unique_ptr<AsyncCallTracker> async_calls_;
  std::list<CallPtr> running_sync_calls_;
  uint64_t ops_under_lock_ = 0;
  uint64_t locked_sections_ = 0;
  uint64_t running_at_entry_ = 0;  // the current section's list sizes, set once it holds the lock
  uint64_t ready_at_entry_ = 0;
};

}  // namespace perflab::dispatcher
