// A FIFO queue stored in one vector with a moving head: no allocation while empty (std::deque allocates
// even then), one contiguous block otherwise. The indexed strategy keeps one per host, and there can be
// tens of thousands of hosts.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory_resource>
#include <utility>
#include <vector>

namespace perflab::dispatcher {

template <typename T>
class VectorQueue {
 public:
  explicit VectorQueue(std::pmr::memory_resource* memory = std::pmr::get_default_resource())
      : items_(memory) {}

  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }

  void push_back(T item) { items_.push_back(std::move(item)); }

  T pop_front() {
    T item = std::move(items_[head_++]);
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 32 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));  // amortised O(1)
      head_ = 0;
    }
    return item;
  }

  auto begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  auto end() const { return items_.end(); }

 private:
  std::pmr::vector<T> items_;
  size_t head_ = 0;
};

}  // namespace perflab::dispatcher
