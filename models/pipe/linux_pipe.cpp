// Linux pipe ring (see linux_pipe.h).
#include "models/pipe/linux_pipe.h"

#include <algorithm>
#include <cstring>

namespace perflab::pipe {

namespace {
constexpr size_t kPageSize = 4096;
}

size_t LinuxPipe::kernel_size(size_t requested) {
  size_t pages = std::max<size_t>(1, (requested + kPageSize - 1) / kPageSize);
  size_t rounded = 1;
  while (rounded < pages) rounded <<= 1;
  return rounded * kPageSize;
}

LinuxPipe::LinuxPipe(size_t requested_size, Waker& waker)
    : waker_(waker), ring_(kernel_size(requested_size)) {}

size_t LinuxPipe::push(const uint8_t* data, size_t size) {
  size_t n = std::min(size, ring_.size() - size_);
  if (n == 0) return 0;
  size_t tail = (head_ + size_) % ring_.size();
  size_t first = std::min(n, ring_.size() - tail);
  std::memcpy(ring_.data() + tail, data, first);
  std::memcpy(ring_.data(), data + first, n - first);
  size_ += n;
  return n;
}

void LinuxPipe::wake_reader() {
  if (readable_waiter_) {
    waker_.wake(*readable_waiter_);
    readable_waiter_.reset();
  }
}

bool LinuxPipe::write(ProcessId writer, Bytes data, double /*now*/) {
  ++stats_.writes;
  stats_.bytes_written += data.size();
  size_t copied = push(data.data(), data.size());
  if (copied > 0) wake_reader();
  if (copied == data.size()) return true;
  ++stats_.blocked_writes;
  pending_write_ = PendingWrite{writer, std::move(data), copied};
  return false;
}

Bytes LinuxPipe::read_now(size_t max, double /*now*/) {
  size_t n = std::min(max, size_);
  Bytes out(n);
  if (n == 0) return out;
  size_t first = std::min(n, ring_.size() - head_);
  std::memcpy(out.data(), ring_.data() + head_, first);
  std::memcpy(out.data() + first, ring_.data(), n - first);
  head_ = (head_ + n) % ring_.size();
  size_ -= n;
  stats_.bytes_read += n;
  if (pending_write_) {  // the kernel wakes the writer, which copies on into the room made
    PendingWrite& w = *pending_write_;
    w.offset += push(w.data.data() + w.offset, w.data.size() - w.offset);
    if (w.offset == w.data.size()) {
      ProcessId writer = w.writer;
      pending_write_.reset();
      waker_.wake(writer);
    }
  }
  return out;
}

void LinuxPipe::notify_when_readable(ProcessId reader) {
  if (size_ > 0 || write_closed_) {
    waker_.wake(reader);
  } else {
    readable_waiter_ = reader;
  }
}

void LinuxPipe::close_write(double /*now*/) {
  write_closed_ = true;
  wake_reader();
}

}  // namespace perflab::pipe
