// See frame_inbox.h.
#include "sim/engines/real/frame_inbox.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace perflab::real {
namespace {

constexpr std::uint64_t kTimerKey =
    ~std::uint64_t{0};  // the epoll key of the timerfd; links use their number
constexpr std::size_t kReadChunk = 256 * 1024;

Status os_error(const std::string& what) {
  return Status::Error(what + ": " + std::strerror(errno));
}

timespec to_timespec(std::int64_t ns) {
  return {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

}  // namespace

Result<FrameInbox> FrameInbox::create() {
  UniqueFd epoll(epoll_create1(EPOLL_CLOEXEC));
  if (epoll.get() < 0) return os_error("epoll_create1");
  UniqueFd timer(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
  if (timer.get() < 0) return os_error("timerfd_create");
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = kTimerKey;
  if (epoll_ctl(epoll.get(), EPOLL_CTL_ADD, timer.get(), &event) != 0) return os_error("epoll_ctl timerfd");
  return FrameInbox(std::move(epoll), std::move(timer));
}

Status FrameInbox::add(int link, int fd) {
  if (link < 0 || sources_.count(link) > 0)
    return Status::Error("link " + std::to_string(link) + " added twice");
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = static_cast<std::uint64_t>(link);
  if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) != 0) return os_error("epoll_ctl");
  sources_[link].fd = fd;
  return Status::OK();
}

void FrameInbox::push(Source& source, Arrival arrival, std::int64_t due_ns) {
  source.last_due = std::max(source.last_due, due_ns);
  ++parsed_;
  line_.push(Pending{due_ns, next_order_++, std::move(arrival)});
}

Status FrameInbox::read_available(int link, Source& source) {
  std::string why_ended;
  char chunk[kReadChunk];
  for (;;) {
    ssize_t n = recv(source.fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n > 0) {
      source.buffer.append(chunk, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) {
      why_ended = "the peer closed the connection";
    } else if (errno == EINTR) {
      continue;
    } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
      why_ended = std::string("the connection broke: ") + std::strerror(errno);
    }
    break;
  }
  size_t consumed = 0;
  while (source.buffer.size() - consumed >= Frame::kHeaderBytes) {
    auto header = decode_frame_header(source.buffer.data() + consumed);
    if (!header.ok()) return header.status();
    auto [frame, size] = std::move(header).value();
    if (source.buffer.size() - consumed - Frame::kHeaderBytes < size) break;
    frame.payload = source.buffer.substr(consumed + Frame::kHeaderBytes, size);
    consumed += Frame::kHeaderBytes + size;
    const std::int64_t due = frame.due_ns;
    push(source, Arrival{link, std::move(frame), ""}, due);
  }
  source.buffer.erase(0, consumed);
  if (!why_ended.empty()) {
    if (!source.buffer.empty()) why_ended += " inside a frame";
    epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, source.fd, nullptr);
    source.ended = true;
    push(source, Arrival{link, std::nullopt, why_ended}, std::max(monotonic_ns(), source.last_due));
  }
  return Status::OK();
}

Result<bool> FrameInbox::poll(int timeout_ms) {
  epoll_event events[64];
  int ready = epoll_wait(epoll_.get(), events, 64, timeout_ms);
  if (ready < 0) {
    if (errno == EINTR) return false;
    return os_error("epoll_wait");
  }
  bool fired = false;
  for (int i = 0; i < ready; ++i) {
    if (events[i].data.u64 == kTimerKey) {
      std::uint64_t expirations = 0;
      if (read(timer_.get(), &expirations, sizeof expirations) == sizeof expirations) fired = true;
      continue;
    }
    int link = static_cast<int>(events[i].data.u64);
    Source& source = sources_.at(link);
    if (source.ended) continue;
    Status read = read_available(link, source);
    if (!read.ok()) return read;
  }
  return fired;
}

Status FrameInbox::arm(std::int64_t deadline_ns) {
  if (deadline_ns == armed_ns_) return Status::OK();
  itimerspec spec{};
  spec.it_value = to_timespec(deadline_ns);  // 0: disarmed
  if (timerfd_settime(timer_.get(), TFD_TIMER_ABSTIME, &spec, nullptr) != 0)
    return os_error("timerfd_settime");
  armed_ns_ = deadline_ns;
  return Status::OK();
}

std::vector<Arrival> FrameInbox::pop_due(std::int64_t now_ns) {
  std::vector<Arrival> due;
  while (!line_.empty() && line_.top().due_ns <= now_ns) {
    due.push_back(std::move(const_cast<Pending&>(line_.top()).arrival));
    line_.pop();
  }
  return due;
}

Result<std::vector<Arrival>> FrameInbox::next(bool block, int idle_timeout_ms, std::int64_t wake_ns) {
  auto polled = poll(0);
  if (!polled.ok()) return polled.status();
  std::vector<Arrival> due = pop_due(monotonic_ns());
  if (!due.empty() || !block) return due;
  const std::int64_t idle_ns = static_cast<std::int64_t>(idle_timeout_ms) * 1'000'000;
  std::uint64_t progress = parsed_;
  std::int64_t idle_until = monotonic_ns() + idle_ns;
  // Each pass parses a frame, or the timer fires at a due time or the wake-up, or the idle deadline comes
  // nearer.
  for (;;) {
    std::int64_t now = monotonic_ns();
    if (parsed_ != progress) {
      progress = parsed_;
      idle_until = now + idle_ns;
    }
    if (wake_ns > 0 && now >= wake_ns) return due;
    if (line_.empty() && wake_ns == 0 && now >= idle_until) {
      return Status::Error("nothing arrived from the peers for " + std::to_string(idle_timeout_ms) + " ms");
    }
    std::int64_t deadline = line_.empty() ? 0 : line_.top().due_ns;
    if (wake_ns > 0 && (deadline == 0 || wake_ns < deadline)) deadline = wake_ns;
    Status armed = arm(deadline);
    if (!armed.ok()) return armed;
    int wait_ms = deadline == 0 ? static_cast<int>((idle_until - now + 999'999) / 1'000'000) : -1;
    auto fired = poll(wait_ms);
    if (!fired.ok()) return fired.status();
    if (*fired) armed_ns_ = 0;
    now = monotonic_ns();
    due = pop_due(now);
    if (*fired && deadline > 0 && (!due.empty() || deadline == wake_ns)) {
      const std::int64_t late = std::max<std::int64_t>(0, now - deadline);
      oversleep_.sleeps += 1;
      oversleep_.total_ns += late;
      oversleep_.max_ns = std::max(oversleep_.max_ns, late);
    }
    if (!due.empty()) return due;
  }
}

}  // namespace perflab::real
