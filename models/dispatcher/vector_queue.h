// A FIFO queue whose front item lives inline and the rest in one vector with a moving head. The indexed
// strategy keeps one per host, and there can be tens of thousands of hosts with one ready call each: the
// inline front makes such a queue cost no allocation, and promoting its call reads no other block of
// memory than the host's own. std::deque would allocate even while empty.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace perflab::dispatcher {

template <typename T>
class VectorQueue {
 public:
  bool empty() const { return !front_.has_value(); }
  size_t size() const { return empty() ? 0 : 1 + rest_.size() - rest_head_; }
  T& front() { return *front_; }
  const T& front() const { return *front_; }

  void push_back(T item) {
    if (empty()) {
      front_ = std::move(item);
    } else {
      rest_.push_back(std::move(item));
    }
  }

  T pop_front() {
    T item = std::move(*front_);
    if (rest_head_ == rest_.size()) {
      front_.reset();
    } else {
      front_ = std::move(rest_[rest_head_++]);
      if (rest_head_ == rest_.size()) {
        rest_.clear();  // keeps the capacity for the next burst
        rest_head_ = 0;
      } else if (rest_head_ >= 32 && rest_head_ * 2 >= rest_.size()) {
        rest_.erase(rest_.begin(),
                    rest_.begin() + static_cast<std::ptrdiff_t>(rest_head_));  // amortised O(1)
        rest_head_ = 0;
      }
    }
    return item;
  }

  // Calls visit(item) for every item, front first.
  template <typename Visit>
  void for_each(Visit visit) const {
    if (empty()) {
      return;
    }
    visit(*front_);
    for (size_t i = rest_head_; i < rest_.size(); ++i) {
      visit(rest_[i]);
    }
  }

 private:
  std::optional<T> front_;  // empty only when the whole queue is
  std::vector<T> rest_;     // the items after the front, from rest_head_ on
  size_t rest_head_ = 0;
};

}  // namespace perflab::dispatcher
