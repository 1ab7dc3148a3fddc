// FrameInbox: the receiving side of several shaped loopback links (shaped_link.h) in one single-threaded
// event loop, as a Twisted reactor holds every connection of a Foolscap client: epoll on the sockets, and
// a delay line that holds each frame until its due time (the sender's stamp), woken by a timerfd armed at
// the earliest due time as an absolute CLOCK_MONOTONIC deadline. next() returns every frame due at that
// instant, from every link, in one batch: the I/O pass of one reactor turn, so messages that arrive
// together are handled together. A link that closes or breaks is reported once, after the frames it sent
// before it ended. Waits are bounded by an idle timeout. Sending stays with the links (blocking writes).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "sim/engines/real/deadline_sleeper.h"
#include "sim/engines/real/loopback_socket.h"

namespace perflab::real {

// A frame of link `link`, or (no frame) the link's end and why it ended.
struct Arrival {
  int link = 0;
  std::optional<Frame> frame;
  std::string ended;
};

class FrameInbox {
 public:
  static Result<FrameInbox> create();

  // Receives from `fd` (owned by its link) as link `link`.
  Status add(int link, int fd);
  // The frames due now. With `block`, first waits until at least one is due or a link ends, or until
  // `wake_ns` (monotonic_ns() time; 0: no such deadline) when it returns none; an error when no complete
  // frame arrives and nothing falls due for `idle_timeout_ms`.
  Result<std::vector<Arrival>> next(bool block, int idle_timeout_ms, std::int64_t wake_ns = 0);
  // How late the timer's wake-ups were, against the due time they waited for.
  const OversleepStats& oversleep() const { return oversleep_; }

 private:
  struct Source {
    int fd = -1;
    std::string buffer;  // bytes received, not yet a whole frame
    std::int64_t last_due = 0;
    bool ended = false;
  };
  struct Pending {
    std::int64_t due_ns;
    std::uint64_t order;  // arrival order among equal due times
    Arrival arrival;
    bool operator>(const Pending& other) const {
      return due_ns != other.due_ns ? due_ns > other.due_ns : order > other.order;
    }
  };

  FrameInbox(UniqueFd epoll, UniqueFd timer) : epoll_(std::move(epoll)), timer_(std::move(timer)) {}
  // Reads what the ready sockets hold (waiting at most `timeout_ms` for one): true if the timer fired.
  Result<bool> poll(int timeout_ms);
  Status read_available(int link, Source& source);
  void push(Source& source, Arrival arrival, std::int64_t due_ns);
  std::vector<Arrival> pop_due(std::int64_t now_ns);
  Status arm(std::int64_t deadline_ns);

  UniqueFd epoll_;
  UniqueFd timer_;
  std::map<int, Source> sources_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> line_;
  std::uint64_t next_order_ = 0;
  std::int64_t armed_ns_ = 0;  // the timer's deadline, 0 when disarmed
  std::uint64_t parsed_ = 0;   // frames and ends parsed so far (the idle timeout's progress)
  OversleepStats oversleep_;
};

}  // namespace perflab::real
