// EventLoop: a plain C++ scheduler for the processes of pipeline.h, in simulated time. The tests use it to
// drive the model without SimGrid; the study's driver runs the same processes as SimGrid actors instead.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "models/common/status.h"
#include "models/pipe/process.h"

namespace perflab::pipe {

class EventLoop : public Waker {
 public:
  // Steps the processes (indexed by ProcessId) until all have finished; returns the time the last did.
  // An error if they stop making progress (every unfinished process waits and nobody can wake it).
  Result<double> run(const std::vector<Process*>& processes);
  void wake(ProcessId process) override;
  double now() const { return now_; }

 private:
  struct Entry {
    double time;
    uint64_t order;
    ProcessId process;
    uint64_t generation;
    bool operator>(const Entry& other) const {
      return time != other.time ? time > other.time : order > other.order;
    }
  };
  struct State {
    bool waiting = false;
    bool finished = false;
    uint64_t generation = 0;
  };
  void schedule(ProcessId process, double time);

  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
  std::vector<State> states_;
  double now_ = 0;
  uint64_t order_ = 0;
  ProcessId running_ = -1;
  bool woken_while_running_ = false;
};

}  // namespace perflab::pipe
