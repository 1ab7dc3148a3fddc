// Loopback TCP for the real engine: a listener bound to 127.0.0.1 only (an ephemeral port, never another
// interface), a connection to it, and framed messages over a connected socket. Every wait is bounded by a
// timeout, so a peer that hangs or dies turns into an error, never a hang.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "models/common/status.h"

namespace perflab::real {

// A file descriptor, closed when it goes out of scope.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset();

 private:
  int fd_ = -1;
};

struct Listener {
  UniqueFd fd;
  std::uint16_t port = 0;
};

// Listens on 127.0.0.1, on a port the kernel picks.
Result<Listener> listen_loopback();
// Accepts one connection, waiting at most `timeout_ms`.
Result<UniqueFd> accept_connection(const Listener& listener, int timeout_ms);
Result<UniqueFd> connect_loopback(std::uint16_t port);

// One message: what it is, which request it answers, when the receiver may see it (monotonic ns: the
// sender's delay line stamps it), and its bytes.
struct Frame {
  std::uint32_t kind = 0;
  std::uint64_t id = 0;
  std::int64_t due_ns = 0;
  std::string payload;

  static constexpr std::size_t kHeaderBytes = 4 + 8 + 8 + 8;
  std::size_t wire_bytes() const { return kHeaderBytes + payload.size(); }
};

Status send_frame(int fd, const Frame& frame);
// A frame's header from its first kHeaderBytes bytes: the frame without its payload, and the payload's size;
// an error when the size is absurd (a corrupt stream).
Result<std::pair<Frame, std::uint64_t>> decode_frame_header(const char* header);
// The next frame; nullopt when the peer closed the connection cleanly between frames. An error when
// nothing arrives for `idle_timeout_ms`, or the connection breaks inside a frame.
Result<std::optional<Frame>> receive_frame(int fd, int idle_timeout_ms);

}  // namespace perflab::real
