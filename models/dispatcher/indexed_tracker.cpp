// IndexedTracker; see indexed_tracker.h.
#include "models/dispatcher/indexed_tracker.h"

#include <algorithm>

namespace perflab::dispatcher {

IndexedTracker::Lane& IndexedTracker::lane_for(const Call& call, OpCounter& ops) {
  if (call.for_web_socket()) {
    return web_sockets_;
  }
  ops.visit();
  if (last_host_ == nullptr || last_host_->host != call.host()) {  // calls often come in runs to one host
    last_host_ = &hosts_.find_or_add(call.host(), /*capped=*/true);
  }
  return last_host_->value;
}

void IndexedTracker::set_head_eligible(Lane& lane, bool eligible, OpCounter& ops) {
  ops.tree_operation(eligible_heads_.size());
  if (eligible) {
    add_eligible_head(lane);
  } else {
    spare_head_node_ = eligible_heads_.extract(lane.ready.front().sequence);
  }
  lane.head_is_eligible = eligible;
}

// Most heads that become eligible belong to a call just enqueued, the newest of all: hinting the end
// of the set makes that insert amortised O(1) instead of a walk down the tree (an older head, one whose
// host dropped below its cap, falls back to the ordinary insert).
void IndexedTracker::add_eligible_head(Lane& lane) {
  const uint64_t sequence = lane.ready.front().sequence;
  if (spare_head_node_.empty()) {
    eligible_heads_.emplace_hint(eligible_heads_.end(), sequence, &lane);
    return;
  }
  spare_head_node_.key() = sequence;
  spare_head_node_.mapped() = &lane;
  eligible_heads_.insert(eligible_heads_.end(), std::move(spare_head_node_));
}

void IndexedTracker::add_running(CallPtr call, Lane& lane) {
  call->tracker_word_.store(running_.size(), std::memory_order_relaxed);
  running_.push_back({next_promotion_++, std::move(call), &lane});
}

void IndexedTracker::add_ready(CallPtr call, OpCounter& ops) {
  Lane& lane = lane_for(*call, ops);
  lane.ready.push_back({next_sequence_++, std::move(call)});
  ops.visit();
  ++ready_count_;
  update_eligibility(lane, ops);
}

void IndexedTracker::promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) {
  while (!eligible_heads_.empty() && running_.size() < static_cast<size_t>(max_requests)) {
    ops.tree_operation(eligible_heads_.size());
    Lane& lane = *eligible_heads_.begin()->second;
    spare_head_node_ = eligible_heads_.extract(eligible_heads_.begin());
    lane.head_is_eligible = false;

    CallPtr call = lane.ready.pop_front().call;
    ops.visit();
    --ready_count_;
    ++lane.running;
    promoted.push_back(call);
    add_running(std::move(call), lane);
    ops.visit();
    update_eligibility(lane, ops);
  }
}

bool IndexedTracker::remove_running(const Call& call, OpCounter& ops) {
  ops.visit();
  const size_t slot = call.tracker_word_.load(std::memory_order_relaxed);
  if (slot >= running_.size() || running_[slot].call.get() != &call) {
    return false;
  }
  Lane& lane = *running_[slot].lane;
  const CallPtr keep_alive = std::move(running_[slot].call);  // `call` may have no other owner
  if (slot + 1 != running_.size()) {
    running_[slot] = std::move(running_.back());
    running_[slot].call->tracker_word_.store(slot, std::memory_order_relaxed);
  }
  running_.pop_back();
  --lane.running;
  update_eligibility(lane, ops);
  if (&lane != &web_sockets_ && lane.running == 0 && lane.ready.empty()) {
    ops.visit();
    if (last_host_ != nullptr && &last_host_->value == &lane) {
      last_host_ = nullptr;
    }
    hosts_.erase(call.host());
  }
  return true;
}

void IndexedTracker::set_max_requests_per_host(int max_requests_per_host, OpCounter& ops) {
  max_requests_per_host_ = max_requests_per_host;
  hosts_.for_each([&](const std::string& /*host*/, Lane& lane) {
    ops.visit();
    update_eligibility(lane, ops);
  });
}

std::vector<CallPtr> IndexedTracker::ready_calls() const {
  std::vector<const ReadyCall*> ready;
  ready.reserve(ready_count_);
  auto collect = [&](const Lane& lane) {
    lane.ready.for_each([&](const ReadyCall& waiting) { ready.push_back(&waiting); });
  };
  collect(web_sockets_);
  hosts_.for_each([&](const std::string& /*host*/, const Lane& lane) { collect(lane); });
  std::sort(ready.begin(), ready.end(),
            [](const ReadyCall* a, const ReadyCall* b) { return a->sequence < b->sequence; });
  std::vector<CallPtr> calls;
  calls.reserve(ready.size());
  for (const ReadyCall* waiting : ready) {
    calls.push_back(waiting->call);
  }
  return calls;
}

std::vector<CallPtr> IndexedTracker::running_calls() const {
  std::vector<const RunningCall*> running;
  running.reserve(running_.size());
  for (const RunningCall& running_call : running_) {
    running.push_back(&running_call);
  }
  std::sort(running.begin(), running.end(),
            [](const RunningCall* a, const RunningCall* b) { return a->promotion < b->promotion; });
  std::vector<CallPtr> calls;
  calls.reserve(running.size());
  for (const RunningCall* running_call : running) {
    calls.push_back(running_call->call);
  }
  return calls;
}

}  // namespace perflab::dispatcher
