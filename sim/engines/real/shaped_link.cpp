// See shaped_link.h.
#include "sim/engines/real/shaped_link.h"

#include <sys/socket.h>

namespace perflab::real {

ShapedLink::ShapedLink(UniqueFd fd, const NetworkSpec& network, Rng latency_rng, DeadlineSleeper& sleeper)
    : fd_(std::move(fd)),
      latency_(network.latency),
      bucket_(network.bandwidth, /*burst_bytes=*/0),
      latency_rng_(latency_rng),
      sleeper_(sleeper) {}

Status ShapedLink::send(std::uint32_t kind, std::uint64_t id, std::string payload) {
  Frame frame{kind, id, 0, std::move(payload)};
  std::lock_guard<std::mutex> lock(send_mutex_);
  std::int64_t left = bucket_.take(static_cast<double>(frame.wire_bytes()), monotonic_ns());
  frame.due_ns = left + static_cast<std::int64_t>(latency_.sample(latency_rng_) * 1e9);
  return send_frame(fd_.get(), frame);
}

Result<std::optional<Frame>> ShapedLink::receive(int idle_timeout_ms) {
  auto frame = receive_frame(fd_.get(), idle_timeout_ms);
  if (frame.ok() && frame->has_value()) sleeper_.sleep_until((*frame)->due_ns);
  return frame;
}

void ShapedLink::shut_down() { shutdown(fd_.get(), SHUT_RDWR); }

}  // namespace perflab::real
