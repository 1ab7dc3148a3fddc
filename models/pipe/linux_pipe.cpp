// Linux pipe ring of page slots (see linux_pipe.h).
#include "models/pipe/linux_pipe.h"

#include <algorithm>
#include <cstring>

namespace perflab::pipe {

size_t LinuxPipe::kernel_size(size_t requested) {
  size_t rounded = kPageSize;
  while (rounded < requested) rounded <<= 1;
  return rounded;
}

LinuxPipe::LinuxPipe(size_t requested_size, Waker& waker)
    : waker_(waker), slot_limit_(kernel_size(requested_size) / kPageSize) {}

bool LinuxPipe::fits(size_t size) const {
  size_t rest = size;
  const size_t merge = size % kPageSize;
  if (merge != 0 && !slots_.empty() && slots_.back().offset + slots_.back().len + merge <= kPageSize) {
    rest -= merge;
  }
  const size_t pages = (rest + kPageSize - 1) / kPageSize;
  return slots_.size() + pages <= slot_limit_;
}

size_t LinuxPipe::merge_into_last(const Bytes& data) {
  const size_t merge = data.size() % kPageSize;
  if (merge == 0 || slots_.empty()) return 0;
  Slot& last = slots_.back();
  if (last.offset + last.len + merge > kPageSize) return 0;
  std::memcpy(last.page.data() + last.offset + last.len, data.data(), merge);
  last.len += merge;
  size_ += merge;
  return merge;
}

size_t LinuxPipe::copy_pages(const Bytes& data, size_t from) {
  while (from < data.size() && !full()) {
    Slot slot;
    slot.page.resize(kPageSize);
    slot.len = std::min(kPageSize, data.size() - from);
    std::memcpy(slot.page.data(), data.data() + from, slot.len);
    from += slot.len;
    size_ += slot.len;
    slots_.push_back(std::move(slot));
  }
  return from;
}

void LinuxPipe::wake_reader() {
  if (readable_waiter_ && !locked_) {
    waker_.wake(*readable_waiter_);
    readable_waiter_.reset();
  }
}

bool LinuxPipe::write(ProcessId writer, Bytes data, double /*now*/) {
  ++stats_.writes;
  stats_.bytes_written += data.size();
  const bool was_empty = slots_.empty();
  size_t copied = copy_pages(data, merge_into_last(data));
  if (copied == data.size()) {
    if (was_empty || poll_usage_) wake_reader();
    return true;
  }
  ++stats_.blocked_writes;
  if (was_empty) wake_reader();  // before sleeping on the full ring
  pending_write_ = PendingWrite{writer, std::move(data), copied};
  return false;
}

bool LinuxPipe::begin_copy(size_t size) {
  if (locked_ || pending_write_ || !fits(size)) return false;
  locked_ = true;
  return true;
}

void LinuxPipe::end_copy(double /*now*/) {
  locked_ = false;
  if (size_ > 0 || write_closed_) wake_reader();
}

size_t LinuxPipe::read_into(uint8_t* buffer, size_t max, double /*now*/) {
  if (locked_) return 0;
  size_t got = 0;
  bool wake_writer = false;
  while (got < max && !slots_.empty()) {
    Slot& slot = slots_.front();
    size_t n = std::min(slot.len, max - got);
    std::memcpy(buffer + got, slot.page.data() + slot.offset, n);
    got += n;
    slot.offset += n;
    slot.len -= n;
    size_ -= n;
    if (slot.len == 0) {
      wake_writer |= full();
      slots_.pop_front();
    }
  }
  stats_.bytes_read += got;
  if (wake_writer && pending_write_) {  // the writer wakes, finds the pipe as the read left it, copies on
    PendingWrite& w = *pending_write_;
    const bool was_empty = slots_.empty();
    w.offset = copy_pages(w.data, w.offset);
    if (w.offset == w.data.size()) {
      ProcessId writer = w.writer;
      pending_write_.reset();
      if (was_empty || poll_usage_) wake_reader();
      waker_.wake(writer);
    } else if (was_empty) {
      wake_reader();
    }
  }
  return got;
}

void LinuxPipe::notify_when_readable(ProcessId reader) {
  poll_usage_ = true;
  if (available() > 0 || (write_closed_ && !locked_)) {
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
