// ShapedLink: one end of a real loopback connection that behaves like the scenario's [network]. Outgoing
// messages pass a token bucket (the bandwidth) and are stamped with the time they may be seen: when their
// last byte left plus a one-way latency drawn from the scenario's distribution. Incoming messages wait in a
// delay line until their stamp (on the monotonic clock both processes share), on absolute deadlines. So each
// direction has its own delay line and bucket, and the latency applies to every message, the first one too
// (unlike a proxy that delays chunks of a stream in one direction).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>

#include "sim/engines/real/deadline_sleeper.h"
#include "sim/engines/real/loopback_socket.h"
#include "sim/engines/real/token_bucket.h"
#include "sim/sampling/distribution.h"
#include "sim/sampling/rng.h"
#include "sim/study/study.h"

namespace perflab::real {

class ShapedLink {
 public:
  // `latency_rng`: the stream this end draws its outgoing messages' latencies from.
  ShapedLink(UniqueFd fd, const NetworkSpec& network, Rng latency_rng, DeadlineSleeper& sleeper);

  // Sends one message; thread-safe (messages leave in the order the calls take the bucket).
  Status send(std::uint32_t kind, std::uint64_t id, std::string payload);
  // The next message once it is due; nullopt when the peer closed cleanly. One receiving thread only.
  Result<std::optional<Frame>> receive(int idle_timeout_ms);
  // Stops both directions: a thread blocked in receive() sees the connection end.
  void shut_down();
  // The socket, for a receiver that waits on several links at once (frame_inbox.h) instead of receive().
  int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
  Distribution latency_;
  std::mutex send_mutex_;
  TokenBucket bucket_;
  Rng latency_rng_;
  DeadlineSleeper& sleeper_;
};

}  // namespace perflab::real
