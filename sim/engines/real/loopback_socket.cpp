// See loopback_socket.h.
#include "sim/engines/real/loopback_socket.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace perflab::real {
namespace {

constexpr std::uint64_t kMaxPayloadBytes = 1ULL << 30;  // a frame claiming more is corrupt

Status os_error(const std::string& what) { return Status::Error(what + ": " + std::strerror(errno)); }

sockaddr_in loopback_address(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

void set_no_delay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Waits until fd is readable; false on timeout.
Result<bool> wait_readable(int fd, int timeout_ms) {
  pollfd poll_fd{fd, POLLIN, 0};
  for (;;) {
    int ready = poll(&poll_fd, 1, timeout_ms);
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) return os_error("poll");
  }
}

// Reads exactly `size` bytes; the number read before the peer closed, if it did.
Result<std::size_t> read_exactly(int fd, char* out, std::size_t size, int idle_timeout_ms) {
  std::size_t done = 0;
  while (done < size) {
    auto readable = wait_readable(fd, idle_timeout_ms);
    if (!readable.ok()) return readable.status();
    if (!*readable) {
      return Status::Error("no data from the peer for " + std::to_string(idle_timeout_ms) + " ms");
    }
    ssize_t n = read(fd, out + done, size - done);
    if (n == 0) return done;
    if (n < 0) {
      if (errno == EINTR) continue;
      return os_error("read from the peer");
    }
    done += static_cast<std::size_t>(n);
  }
  return done;
}

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
T take(const char*& in) {
  T value;
  std::memcpy(&value, in, sizeof value);
  in += sizeof value;
  return value;
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = other.release();
  }
  return *this;
}

void UniqueFd::reset() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

Result<Listener> listen_loopback() {
  UniqueFd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return os_error("socket");
  sockaddr_in address = loopback_address(0);
  if (bind(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    return os_error("bind 127.0.0.1");
  if (listen(fd.get(), SOMAXCONN) != 0) return os_error("listen");  // several peers may connect at once
  socklen_t length = sizeof address;
  if (getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0)
    return os_error("getsockname");
  return Listener{std::move(fd), ntohs(address.sin_port)};
}

Result<UniqueFd> accept_connection(const Listener& listener, int timeout_ms) {
  auto readable = wait_readable(listener.fd.get(), timeout_ms);
  if (!readable.ok()) return readable.status();
  if (!*readable) return Status::Error("no connection within " + std::to_string(timeout_ms) + " ms");
  UniqueFd fd(accept4(listener.fd.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (fd.get() < 0) return os_error("accept");
  set_no_delay(fd.get());
  return fd;
}

Result<UniqueFd> connect_loopback(std::uint16_t port) {
  UniqueFd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return os_error("socket");
  sockaddr_in address = loopback_address(port);
  if (connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    return os_error("connect to 127.0.0.1:" + std::to_string(port));
  set_no_delay(fd.get());
  return fd;
}

Status send_frame(int fd, const Frame& frame) {
  std::string bytes;
  bytes.reserve(frame.wire_bytes());
  put(bytes, frame.kind);
  put(bytes, frame.id);
  put(bytes, frame.due_ns);
  put(bytes, static_cast<std::uint64_t>(frame.payload.size()));
  bytes += frame.payload;
  for (std::size_t sent = 0; sent < bytes.size();) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return os_error("write to the peer");
    }
    sent += static_cast<std::size_t>(n);
  }
  return Status::OK();
}

Result<std::pair<Frame, std::uint64_t>> decode_frame_header(const char* header) {
  const char* in = header;
  Frame frame;
  frame.kind = take<std::uint32_t>(in);
  frame.id = take<std::uint64_t>(in);
  frame.due_ns = take<std::int64_t>(in);
  auto size = take<std::uint64_t>(in);
  if (size > kMaxPayloadBytes) return Status::Error("corrupt frame: payload of " + std::to_string(size) + " bytes");
  return std::pair{std::move(frame), size};
}

Result<std::optional<Frame>> receive_frame(int fd, int idle_timeout_ms) {
  char header[Frame::kHeaderBytes];
  auto got = read_exactly(fd, header, sizeof header, idle_timeout_ms);
  if (!got.ok()) return got.status();
  if (*got == 0) return std::optional<Frame>();
  if (*got < sizeof header) return Status::Error("the peer closed the connection inside a frame header");
  auto decoded = decode_frame_header(header);
  if (!decoded.ok()) return decoded.status();
  auto [frame, size] = std::move(decoded).value();
  frame.payload.resize(size);
  got = read_exactly(fd, frame.payload.data(), size, idle_timeout_ms);
  if (!got.ok()) return got.status();
  if (*got < size) return Status::Error("the peer closed the connection inside a frame");
  return std::optional<Frame>(std::move(frame));
}

}  // namespace perflab::real
