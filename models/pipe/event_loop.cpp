// The tests' scheduler (see event_loop.h).
#include "models/pipe/event_loop.h"

#include <string>

namespace perflab::pipe {

void EventLoop::schedule(ProcessId process, double time) {
  State& state = states_[static_cast<size_t>(process)];
  state.waiting = false;
  queue_.push(Entry{time, order_++, process, ++state.generation});
}

void EventLoop::wake(ProcessId process) {
  if (process == running_) {
    woken_while_running_ = true;
    return;
  }
  if (states_[static_cast<size_t>(process)].waiting) schedule(process, now_);
}

Result<double> EventLoop::run(const std::vector<Process*>& processes) {
  states_.assign(processes.size(), State{});
  for (size_t i = 0; i < processes.size(); ++i) schedule(static_cast<ProcessId>(i), 0);
  size_t finished = 0;
  while (!queue_.empty()) {
    Entry entry = queue_.top();
    queue_.pop();
    State& state = states_[static_cast<size_t>(entry.process)];
    if (entry.generation != state.generation || state.finished) continue;
    now_ = entry.time;
    running_ = entry.process;
    woken_while_running_ = false;
    Action action = processes[static_cast<size_t>(entry.process)]->step(now_);
    running_ = -1;
    if (std::holds_alternative<Compute>(action)) {
      schedule(entry.process, now_ + std::get<Compute>(action).seconds);
    } else if (std::holds_alternative<SleepUntil>(action)) {
      schedule(entry.process, std::get<SleepUntil>(action).time);
    } else if (std::holds_alternative<Wait>(action)) {
      double deadline = std::get<Wait>(action).deadline;
      if (woken_while_running_) {
        schedule(entry.process, now_);
      } else if (deadline < kForever) {
        schedule(entry.process, deadline);
        state.waiting = true;  // a wake before the deadline reschedules it sooner
      } else {
        state.waiting = true;
      }
    } else {
      state.finished = true;
      ++finished;
    }
  }
  if (finished != processes.size()) {
    std::string stuck;
    for (size_t i = 0; i < processes.size(); ++i) {
      if (!states_[i].finished) stuck += (stuck.empty() ? "" : ", ") + processes[i]->name();
    }
    return Status::Error("the processes stopped making progress at t = " + std::to_string(now_) +
                         " s: " + stuck + " wait and nobody can wake them");
  }
  return now_;
}

}  // namespace perflab::pipe
