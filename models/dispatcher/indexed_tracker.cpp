// IndexedTracker; see indexed_tracker.h.
#include "models/dispatcher/indexed_tracker.h"

#include <algorithm>

namespace perflab::dispatcher {

IndexedTracker::Lane& IndexedTracker::lane_for(const Call& call, OpCounter& ops) {
  if (call.for_web_socket()) {
    return web_sockets_;
  }
  ops.visit();
  return hosts_[call.host()];
}

void IndexedTracker::update_eligibility(Lane& lane, OpCounter& ops) {
  const bool eligible =
      !lane.ready.empty() && (!lane.capped_per_host || lane.running < max_requests_per_host_);
  if (eligible == lane.head_is_eligible) {
    return;
  }
  ops.tree_operation(eligible_heads_.size());
  if (eligible) {
    eligible_heads_.emplace(lane.ready.front().sequence, &lane);
  } else {
    eligible_heads_.erase(lane.ready.front().sequence);
  }
  lane.head_is_eligible = eligible;
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
    eligible_heads_.erase(eligible_heads_.begin());
    lane.head_is_eligible = false;

    CallPtr call = lane.ready.pop_front().call;
    ops.visit();
    --ready_count_;
    ++lane.running;
    promoted.push_back(call);
    const Call* key = call.get();
    running_.emplace(key, RunningCall{next_promotion_++, std::move(call), &lane});
    ops.visit();
    update_eligibility(lane, ops);
  }
}

bool IndexedTracker::remove_running(const Call& call, OpCounter& ops) {
  ops.visit();
  auto it = running_.find(&call);
  if (it == running_.end()) {
    return false;
  }
  Lane& lane = *it->second.lane;
  const CallPtr keep_alive = std::move(it->second.call);  // `call` may have no other owner
  running_.erase(it);
  --lane.running;
  update_eligibility(lane, ops);
  if (&lane != &web_sockets_ && lane.running == 0 && lane.ready.empty()) {
    ops.visit();
    hosts_.erase(call.host());
  }
  return true;
}

void IndexedTracker::set_max_requests_per_host(int max_requests_per_host, OpCounter& ops) {
  max_requests_per_host_ = max_requests_per_host;
  for (auto& [host, lane] : hosts_) {
    ops.visit();
    update_eligibility(lane, ops);
  }
}

std::vector<CallPtr> IndexedTracker::ready_calls() const {
  std::vector<const ReadyCall*> ready;
  ready.reserve(ready_count_);
  for (const ReadyCall& waiting : web_sockets_.ready) {
    ready.push_back(&waiting);
  }
  for (const auto& [host, lane] : hosts_) {
    for (const ReadyCall& waiting : lane.ready) {
      ready.push_back(&waiting);
    }
  }
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
  for (const auto& [key, running_call] : running_) {
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
