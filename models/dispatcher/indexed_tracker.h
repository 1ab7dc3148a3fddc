// Strategy "indexed" (perflab, beyond the seed): each host has its own FIFO queue of ready calls and a
// count of its running calls, kept in a hash map. An ordered set keyed by enqueue sequence number holds
// the head of every queue that has ready calls and is under its per-host cap ("eligible heads").
// Promotion repeatedly takes the smallest sequence number while fewer than maxRequests calls run, so each
// promotion costs O(log H) instead of a walk over the ready queue.
//
// Why the order is exactly the scan's: a scan pass walks the ready calls in FIFO order and promotes every
// call whose host is under its cap. During a pass a host's running count only grows, so a call skipped
// once stays skipped until the pass ends; the next call the scan promotes is therefore the oldest ready
// call among hosts still under their cap, which is the oldest of those hosts' queue heads: the smallest
// eligible head. WebSocket calls are never capped and never counted per host, so they share one queue
// whose head is always eligible; within the set they interleave with the hosts by sequence number, just
// as they sit in the scan's single ready queue.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/dispatcher/async_call_tracker.h"
#include "models/dispatcher/host_table.h"
#include "models/dispatcher/vector_queue.h"

namespace perflab::dispatcher {

class IndexedTracker : public AsyncCallTracker {
 public:
  explicit IndexedTracker(int max_requests_per_host) : max_requests_per_host_(max_requests_per_host) {}

  void add_ready(CallPtr call, OpCounter& ops) override;
  void promote(int max_requests, std::vector<CallPtr>& promoted, OpCounter& ops) override;
  bool remove_running(const Call& call, OpCounter& ops) override;
  void set_max_requests_per_host(int max_requests_per_host, OpCounter& ops) override;

  size_t ready_count() const override { return ready_count_; }
  size_t running_count() const override { return running_.size(); }
  std::vector<CallPtr> ready_calls() const override;
  std::vector<CallPtr> running_calls() const override;

 private:
  struct ReadyCall {
    uint64_t sequence;
    CallPtr call;
  };
  // The ready calls and running count of one host, or of all WebSocket calls (never capped).
  struct Lane {
    explicit Lane(bool capped) : capped_per_host(capped) {}
    VectorQueue<ReadyCall> ready;
    int running = 0;
    bool capped_per_host;
    bool head_is_eligible = false;  // ready.front() is in eligible_heads_
  };
  struct RunningCall {
    uint64_t promotion;  // orders the running-calls snapshot
    CallPtr call;
    Lane* lane;
  };

  using EligibleHeads = std::map<uint64_t, Lane*>;  // head sequence number -> lane

  Lane& lane_for(const Call& call, OpCounter& ops);
  // Puts the lane's head in eligible_heads_ or takes it out, as its queue and cap now require. Called
  // several times per call, and most calls change nothing: the check is inline, the change is not.
  void update_eligibility(Lane& lane, OpCounter& ops) {
    const bool eligible =
        !lane.ready.empty() && (!lane.capped_per_host || lane.running < max_requests_per_host_);
    if (eligible != lane.head_is_eligible) {
      set_head_eligible(lane, eligible, ops);
    }
  }
  void set_head_eligible(Lane& lane, bool eligible, OpCounter& ops);
  void add_eligible_head(Lane& lane);
  void add_running(CallPtr call, Lane& lane);

  int max_requests_per_host_;
  uint64_t next_sequence_ = 0;
  uint64_t next_promotion_ = 0;
  size_t ready_count_ = 0;
  // A host is dropped when it has no ready or running call.
  HostTable<Lane> hosts_;
  HostTable<Lane>::Entry* last_host_ = nullptr;  // the entry lane_for() found last, if any
  Lane web_sockets_{/*capped=*/false};
  EligibleHeads eligible_heads_;
  // Unordered; each call knows its index (Call::tracker_word_) and a finished call's slot is filled by
  // the last one, so adding and removing a running call never searches, hashes or allocates.
  std::vector<RunningCall> running_;
  // The last node taken out of eligible_heads_, reused by the next insert: a head enters and leaves the
  // set once per promotion, and reusing its node saves an allocation and a free each time.
  EligibleHeads::node_type spare_head_node_;
};

}  // namespace perflab::dispatcher
