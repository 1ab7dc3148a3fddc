// Dispatcher; see dispatcher.h. Method names follow OkHttp's Dispatcher so the two read side by side.
#include "models/dispatcher/dispatcher.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace perflab::dispatcher {
namespace {

// The vector of promoted calls is kept, emptied, for the next promotion on the same thread: most
// promotions move one call, and reusing the vector saves an allocation and a free each time. A
// promotion takes it (leaving it empty), so one nested in an executor callback gets its own. A vector
// grown by a large batch is not kept.
constexpr size_t kMaxKeptPromotionCapacity = 1024;
thread_local std::vector<CallPtr> spare_promotion_calls;

}  // namespace

Dispatcher::Dispatcher(Executor& executor, Strategy strategy)
    : strategy_(strategy),
      executor_(executor),
      async_calls_(make_async_call_tracker(strategy, kDefaultMaxRequestsPerHost)) {}

std::unique_lock<std::mutex> Dispatcher::begin_section() {
  if (lock_entry_hook_) {
    lock_entry_hook_();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  running_at_entry_ = async_calls_->running_count();
  ready_at_entry_ = async_calls_->ready_count();
  return lock;
}

void Dispatcher::end_section(std::unique_lock<std::mutex>& lock, LockedSection section,
                             const OpCounter& ops) {
  ops_under_lock_ += ops.count();
  ++locked_sections_;
  const LockedSectionReport report{section, ops.count(), running_at_entry_, ready_at_entry_};
  lock.unlock();
  if (lock_observer_) {
    lock_observer_(report);
  }
}

Status Dispatcher::set_max_requests(int max_requests) {
  if (max_requests < 1) {
    return Status::Error("max_requests must be at least 1, got " + std::to_string(max_requests));
  }
  {
    std::unique_lock<std::mutex> lock = begin_section();
    max_requests_ = max_requests;
    end_section(lock, LockedSection::kSetLimit, OpCounter());
  }
  promote_and_execute();
  return Status::OK();
}

Status Dispatcher::set_max_requests_per_host(int max_requests_per_host) {
  if (max_requests_per_host < 1) {
    return Status::Error("max_requests_per_host must be at least 1, got " +
                         std::to_string(max_requests_per_host));
  }
  {
    std::unique_lock<std::mutex> lock = begin_section();
    OpCounter ops;
    max_requests_per_host_ = max_requests_per_host;
    async_calls_->set_max_requests_per_host(max_requests_per_host, ops);
    end_section(lock, LockedSection::kSetLimit, ops);
  }
  promote_and_execute();
  return Status::OK();
}

int Dispatcher::max_requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return max_requests_;
}

int Dispatcher::max_requests_per_host() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return max_requests_per_host_;
}

void Dispatcher::set_idle_callback(std::function<void()> idle_callback) {
  IdleCallback shared;
  if (idle_callback) {
    shared = std::make_shared<const std::function<void()>>(std::move(idle_callback));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  idle_callback_ = std::move(shared);
}

Status Dispatcher::enqueue(CallPtr call) {
  if (!call) {
    return Status::Error("enqueue: the call is null, expected a Call");
  }
  if (!call->mark_submitted()) {
    return Status::Error("enqueue: call " + call->name() +
                         " was already enqueued or executed; a call runs once");
  }
  {
    std::unique_lock<std::mutex> lock = begin_section();
    OpCounter ops;
    async_calls_->add_ready(std::move(call), ops);
    end_section(lock, LockedSection::kEnqueue, ops);
  }
  promote_and_execute();
  return Status::OK();
}

Status Dispatcher::executed(CallPtr call) {
  if (!call) {
    return Status::Error("executed: the call is null, expected a Call");
  }
  if (!call->mark_submitted()) {
    return Status::Error("executed: call " + call->name() +
                         " was already enqueued or executed; a call runs once");
  }
  std::unique_lock<std::mutex> lock = begin_section();
  OpCounter ops;
  running_sync_calls_.push_back(std::move(call));
  ops.visit();
  end_section(lock, LockedSection::kExecuted, ops);
  return Status::OK();
}

Status Dispatcher::finished(const Call& call) {
  return finish(call, /*sync=*/false);
}

Status Dispatcher::finished_sync(const Call& call) {
  return finish(call, /*sync=*/true);
}

// OkHttp's private finished(calls, call): free the slot, promote, and run the idle callback if nothing runs.
Status Dispatcher::finish(const Call& call, bool sync) {
  if (!sync) async_calls_->before_finished(call);  // OkHttp's finished(AsyncCall), before the lock
  IdleCallback idle_callback;
  Status removed = remove_running(call, sync, idle_callback);
  if (!removed.ok()) {
    return removed;
  }
  const bool is_running = promote_and_execute();
  if (!is_running && idle_callback) {
    (*idle_callback)();
  }
  return Status::OK();
}

Status Dispatcher::remove_running(const Call& call, bool sync, IdleCallback& idle_callback) {
  std::unique_lock<std::mutex> lock = begin_section();
  OpCounter ops;
  bool removed = false;
  if (sync) {
    for (auto it = running_sync_calls_.begin(); it != running_sync_calls_.end(); ++it) {
      ops.visit();
      if (it->get() == &call) {
        running_sync_calls_.erase(it);
        removed = true;
        break;
      }
    }
  } else {
    removed = async_calls_->remove_running(call, ops);
  }
  idle_callback = idle_callback_;
  end_section(lock, LockedSection::kFinished, ops);
  if (removed) {
    return Status::OK();
  }
  return Status::Error(std::string(sync ? "finished_sync" : "finished") + ": call " + call.name() +
                       " wasn't in flight (not a running " + (sync ? "sync" : "async") + " call)");
}

bool Dispatcher::promote_and_execute() {
  Promotion promotion = promote();
  if (!promotion.calls.empty()) {
    execute_on_executor(promotion.calls);
  }
  if (promotion.calls.capacity() <= kMaxKeptPromotionCapacity) {
    spare_promotion_calls = std::move(promotion.calls);
  }
  return promotion.is_running;
}

Dispatcher::Promotion Dispatcher::promote() {
  Promotion promotion;
  promotion.calls = std::move(spare_promotion_calls);
  spare_promotion_calls.clear();
  std::unique_lock<std::mutex> lock = begin_section();
  OpCounter ops;
  async_calls_->promote(max_requests_, promotion.calls, ops);
  promotion.is_running = running_calls_count_locked() > 0;
  end_section(lock, LockedSection::kPromote, ops);
  return promotion;
}

// OkHttp's AsyncCall.executeOn(), for a batch. A rejected call fails and is finished; finishing it
// promotes more calls, which OkHttp executes by recursion (deep enough to overflow the stack when
// thousands of queued calls are rejected one after another). Here they go on top of the same work stack
// instead, which hands calls to the executor in the same order without growing the call stack.
void Dispatcher::execute_on_executor(std::vector<CallPtr>& pending) {
  // `pending` is used as a stack: the next call to execute is at the back.
  std::reverse(pending.begin(), pending.end());
  while (!pending.empty()) {
    CallPtr call = std::move(pending.back());
    pending.pop_back();
    Status accepted = executor_.execute(call);
    if (accepted.ok()) {
      continue;
    }

    call->fail(
        Status::Error("interrupted I/O: executor rejected call " + call->name() + ": " + accepted.message()));
    IdleCallback idle_callback;
    async_calls_->before_finished(*call);  // OkHttp's executeOn() calls finished(AsyncCall)
    if (!remove_running(*call, /*sync=*/false, idle_callback).ok()) {
      continue;  // finished by someone else
    }
    Promotion promotion = promote();
    pending.insert(pending.end(), std::make_move_iterator(promotion.calls.rbegin()),
                   std::make_move_iterator(promotion.calls.rend()));
    if (!promotion.is_running && idle_callback) {
      (*idle_callback)();
    }
  }
}

void Dispatcher::cancel_all() {
  std::unique_lock<std::mutex> lock = begin_section();
  OpCounter ops;
  for (const std::vector<CallPtr>& calls : {async_calls_->ready_calls(), async_calls_->running_calls()}) {
    for (const CallPtr& call : calls) {
      ops.visit();
      call->cancel();
    }
  }
  for (const CallPtr& call : running_sync_calls_) {
    ops.visit();
    call->cancel();
  }
  end_section(lock, LockedSection::kCancelAll, ops);
}

std::vector<CallPtr> Dispatcher::ready_async_calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return async_calls_->ready_calls();
}

std::vector<CallPtr> Dispatcher::running_async_calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return async_calls_->running_calls();
}

std::vector<CallPtr> Dispatcher::running_sync_calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {running_sync_calls_.begin(), running_sync_calls_.end()};
}

size_t Dispatcher::queued_calls_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return async_calls_->ready_count();
}

size_t Dispatcher::running_calls_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_calls_count_locked();
}

size_t Dispatcher::running_calls_count_locked() const {
  return async_calls_->running_count() + running_sync_calls_.size();
}

uint64_t Dispatcher::ops_under_lock() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ops_under_lock_;
}

uint64_t Dispatcher::locked_sections() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return locked_sections_;
}

}  // namespace perflab::dispatcher
