// NPFS rules (see windows_pipe.h).
#include "models/pipe/windows_pipe.h"

#include <algorithm>
#include <cstring>

namespace perflab::pipe {

WindowsPipe::WindowsPipe(size_t quota, Waker& waker, CompletionDelay* delay)
    : quota_(quota), waker_(waker), delay_(delay) {}

bool WindowsPipe::delay_applies(size_t got) const {
  return delay_ != nullptr && pending_->mode == ReadMode::kOverlapped && got < pending_->size;
}

bool WindowsPipe::issue_read(ProcessId reader, size_t size, ReadMode mode, double now) {
  pending_ = PendingRead{reader, size, mode, {}, false, std::nullopt};
  if (queued_ == 0 && !write_closed_) return false;
  if (queued_ > 0 && !write_closed_ &&
      delay_applies(queued_)) {  // a closed pipe has nothing more to wait for
    pending_->deadline = delay_->deadline(now, writer_blocked());
    if (pending_->deadline) return false;
  }
  pending_->data = take_from_queue(size);
  pending_->completed = true;
  return true;
}

std::optional<double> WindowsPipe::completion_deadline() const {
  return read_pending() ? pending_->deadline : std::nullopt;
}

void WindowsPipe::expire(double now) {
  if (read_pending() && pending_->deadline && now >= *pending_->deadline) complete_pending();
}

Bytes WindowsPipe::take_completed() {
  Bytes data = std::move(pending_->data);
  pending_.reset();
  return data;
}

void WindowsPipe::complete_pending() {
  if (pending_->data.empty()) pending_->data = take_from_queue(pending_->size);
  pending_->completed = true;
  waker_.wake(pending_->reader);
}

bool WindowsPipe::write(ProcessId writer, Bytes data, double now) {
  const size_t size = data.size();
  ++stats_.writes;
  stats_.bytes_written += size;
  size_t copied = 0;
  if (read_pending() && !pending_->deadline) {
    if (delay_applies(size)) {
      pending_->deadline = delay_->deadline(now, false);  // the first bytes start the delay
    }
    if (!pending_->deadline) {
      copied = std::min(pending_->size, size);
      if (copied == size) {
        pending_->data = std::move(data);  // all of it: the read gets the write's bytes as they are
      } else {
        pending_->data.assign(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(copied));
      }
      stats_.bytes_read += copied;
      pending_->completed = true;
      waker_.wake(pending_->reader);
    }
  }
  if (copied < size) enqueue(std::move(data), copied);
  if (queued_ <= quota_) return true;
  blocked_writer_ = writer;
  ++stats_.blocked_writes;
  if (read_pending() && pending_->deadline) complete_pending();  // H1: a full pipe releases the read
  if (!blocked_writer_) return true;  // that read drained the pipe back under the quota
  return false;
}

void WindowsPipe::enqueue(Bytes data, size_t from) {
  queued_ += data.size() - from;
  queue_.push_back(Entry{std::move(data), from});
  if (readable_waiter_) {
    waker_.wake(*readable_waiter_);
    readable_waiter_.reset();
  }
}

size_t WindowsPipe::take_from_queue(uint8_t* buffer, size_t max) {
  size_t taken = 0;
  while (taken < max && !queue_.empty()) {
    Entry& entry = queue_.front();
    size_t n = std::min(max - taken, entry.data.size() - entry.offset);
    std::memcpy(buffer + taken, entry.data.data() + entry.offset, n);
    taken += n;
    entry.offset += n;
    if (entry.offset == entry.data.size()) queue_.pop_front();
  }
  queued_ -= taken;
  stats_.bytes_read += taken;
  if (blocked_writer_ && queued_ <= quota_) {
    ProcessId writer = *blocked_writer_;
    blocked_writer_.reset();
    waker_.wake(writer);
  }
  return taken;
}

Bytes WindowsPipe::take_from_queue(size_t max) {
  Bytes out(std::min(max, queued_));
  take_from_queue(out.data(), out.size());
  return out;
}

size_t WindowsPipe::read_into(uint8_t* buffer, size_t max, double /*now*/) {
  return take_from_queue(buffer, max);
}

void WindowsPipe::notify_when_readable(ProcessId reader) {
  if (queued_ > 0 || write_closed_) {
    waker_.wake(reader);
  } else {
    readable_waiter_ = reader;
  }
}

void WindowsPipe::close_write(double /*now*/) {
  write_closed_ = true;
  if (read_pending()) complete_pending();  // with no data: a 0-byte read, end of stream
  if (readable_waiter_) {
    waker_.wake(*readable_waiter_);
    readable_waiter_.reset();
  }
}

}  // namespace perflab::pipe
