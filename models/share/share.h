// Share: one share being read from one server (allmydata/immutable/downloader/share.py, Share).
//
//   get_block(segnum): append the request; schedule_loop()
//   reply to read(start, len) -> data:       (_got_data)
//       pending.remove(start, len); received.add(start, data)
//       if |data| < len: unavailable.add(start + |data|, len - |data|)      # a short read
//       schedule_loop()                         # only while alive; a dead share ignores late replies
//   schedule_loop():                            # the fix of ticket #1268 (share.py:193-197)
//       eager:     eventually(loop) on every event, as before the fix
//       coalesced: if the flag is set return; set it; eventually(loop)
//   loop(): flag = false (first statement); if !alive return; do_loop(); errors kill the share
//   do_loop():
//       while get_satisfaction(): pass          # retire what the received data allows
//       (want, need) = desire()                 # recomputed on every loop: the cost at issue
//       send_requests(want + need)              # ask = desired - pending - received; one read per span
//       if need & unavailable: fail (DataUnavailable)
//   get_satisfaction(): offsets table -> UEB -> share hash chain -> block hash nodes -> ciphertext hash
//       nodes -> the data block, hash-checked (a corrupt block is CORRUPT, the share lives on; a bad hash
//       node, UEB or table kills the share: DEAD)
// The third policy, `readv`, coalesces the loops and also sends all the spans one loop() asks of its
// server as one remote call (the batched read estimated in #1264, never landed).
// Every Spans/DataSpans operation is counted (op_counter.h); a LoopReport per loop() tells the driver
// how much work each pass did, so it can charge simulated CPU for it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/common/enum_names.h"
#include "models/common/status.h"
#include "models/share/download_node.h"
#include "models/share/eventual.h"
#include "models/share/spans.h"

namespace perflab::share {

enum class LoopPolicy { kEager, kCoalesced, kReadv };
inline const EnumNames<LoopPolicy> kLoopPolicyNames{
    "loop policy",
    {{LoopPolicy::kEager, "eager"}, {LoopPolicy::kCoalesced, "coalesced"}, {LoopPolicy::kReadv, "readv"}}};

enum class BlockState { kComplete, kCorrupt, kDead, kBadSegnum };

// A server's bucket for one share: read(start, length) answers with the bytes, short past the end. A call
// that fails instead (the connection to the server lost: Foolscap's DeadReferenceError) errbacks through
// failed(): the Share sets the handler to its _got_error. Transports that cannot lose a call never call it.
class RemoteBucket {
 public:
  virtual ~RemoteBucket() = default;
  virtual void read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) = 0;
  virtual void readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) = 0;
  void set_error_handler(std::function<void(const std::string&)> handler) { on_error_ = std::move(handler); }

 protected:
  // One call's errback: `why` the call failed.
  void failed(const std::string& why) {
    if (on_error_) on_error_(why);
  }

 private:
  std::function<void(const std::string&)> on_error_;
};

// What one loop() pass did, for CPU charging and the timeline.
struct LoopReport {
  int shnum = 0;
  uint64_t satisfaction_ops = 0;  // span/hash operations of the get_satisfaction() passes
  uint64_t desire_ops = 0;        // ... of desire() and send_requests()
  int satisfaction_passes = 0;
  size_t reads_sent = 0;
  bool wasted = false;  // found nothing new: retired nothing, consumed nothing, asked nothing
};

struct ShareStats {
  uint64_t loop_calls = 0;
  uint64_t wasted_loops = 0;
  uint64_t desire_calls = 0;
  uint64_t satisfaction_calls = 0;
  uint64_t reads = 0;         // spans asked for
  uint64_t remote_calls = 0;  // read() or readv() calls sent
  uint64_t bytes_read = 0;    // bytes that came back
  uint64_t span_ops = 0;
};
ShareStats& operator+=(ShareStats& a, const ShareStats& b);

class Share {
 public:
  // `block` is the checked block when the state is kComplete (the observer may move it), else null.
  using Observer = std::function<void(BlockState, std::string* block)>;

  Share(DownloadNode& node, int shnum, RemoteBucket& bucket, EventualQueue& queue, LoopPolicy policy,
        double dyhb_rtt);
  Share(const Share&) = delete;
  Share& operator=(const Share&) = delete;

  // Queues a request for a block; returns a handle for cancel().
  int get_block(uint64_t segnum, Observer observer);
  void cancel(int handle);
  void schedule_loop();
  void loop();

  int shnum() const { return shnum_; }
  double dyhb_rtt() const { return dyhb_rtt_; }
  bool is_alive() const { return alive_; }
  bool had_corruption() const { return had_corruption_; }
  const Spans& unavailable() const { return unavailable_; }
  const ShareStats& stats() const { return stats_; }
  void set_loop_hook(std::function<void(const LoopReport&)> hook) { loop_hook_ = std::move(hook); }

 private:
  struct Request {
    int handle;
    uint64_t segnum;
    Observer observer;
  };
  struct Desire {
    Spans want;
    Spans need;
  };

  Status do_loop(LoopReport& report);
  Result<bool> get_satisfaction();
  Result<bool> satisfy_offsets();
  Result<bool> satisfy_ueb();
  Result<bool> satisfy_share_hash_tree();
  Result<bool> satisfy_hashes(uint64_t section, const std::vector<size_t>& needed, bool block_tree);
  bool satisfy_data_block(Request& active);
  Desire desire();
  size_t send_requests(const Spans& desired);
  void got_data(uint64_t start, uint64_t length, std::string data);
  void got_error(const std::string& why);
  void fail(const std::string& why);
  void call() { ops_.add(1); }  // one step of the loop machinery (op_counter.h)
  void log_dump(std::initializer_list<const Spans*> spans);
  const Offsets& offsets() const { return actual_offsets_ ? *actual_offsets_ : guessed_offsets_; }

  DownloadNode& node_;
  CommonShare& common_;
  int shnum_;
  RemoteBucket& bucket_;
  EventualQueue& queue_;
  LoopPolicy policy_;
  double dyhb_rtt_;
  bool alive_ = true;
  bool loop_scheduled_ = false;
  bool had_corruption_ = false;
  int next_handle_ = 0;

  OpCounter ops_;
  Spans pending_{&ops_};
  DataSpans received_{&ops_};
  Spans unavailable_{&ops_};
  std::vector<Request> requested_blocks_;
  Offsets guessed_offsets_;
  std::optional<Offsets> actual_offsets_;
  ShareStats stats_;
  std::function<void(const LoopReport&)> loop_hook_;
  std::string last_failure_;
};

}  // namespace perflab::share
