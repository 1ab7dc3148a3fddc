// Foolscap's eventually(): a FIFO of calls drained once per reactor turn (callLater(0)). A call queued
// while the queue is being drained waits for the next turn — the property that lets all the replies of
// one I/O pass be stored before the first queued Share.loop() runs.
#pragma once

#include <deque>
#include <functional>

namespace perflab::share {

class EventualQueue {
 public:
  void eventually(std::function<void()> call) { queue_.push_back(std::move(call)); }
  bool empty() const { return queue_.empty(); }
  size_t size() const { return queue_.size(); }
  // Runs the calls that were queued when the drain began; returns how many ran.
  size_t drain_once() {
    size_t count = queue_.size();
    for (size_t i = 0; i < count; ++i) {
      std::function<void()> call = std::move(queue_.front());
      queue_.pop_front();
      call();
    }
    return count;
  }

 private:
  std::deque<std::function<void()>> queue_;
};

}  // namespace perflab::share
