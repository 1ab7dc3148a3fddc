// The forked children of a sweep. Each child runs one task, writes its result as text on a pipe and exits;
// the pool collects what each wrote and how it ended. The pool owns its children: whatever way the runner
// leaves (done, an error, Ctrl-C or SIGTERM), the destructor kills and reaps every child still running, and
// a child that outlives its parent anyway (SIGKILL) is killed by the kernel (PR_SET_PDEATHSIG), so nothing
// forked outlives the run.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

class ChildPool {
 public:
  struct Ended {
    size_t task = 0;
    std::string output;       // everything the child wrote
    int wait_status = 0;      // as from waitpid
    std::string kill_reason;  // set when the pool killed it (kill_overdue)
  };

  explicit ChildPool(int capacity) : capacity_(capacity < 1 ? 1 : capacity) {}
  ~ChildPool() { kill_all(); }
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;

  bool full() const { return static_cast<int>(children_.size()) >= capacity_; }
  bool empty() const { return children_.empty(); }

  // Forks a child that runs `work` and sends back the text it returns.
  Status spawn(size_t task, const std::function<std::string()>& work);
  // Waits up to `timeout` for output and returns the children that have ended meanwhile.
  Result<std::vector<Ended>> collect(std::chrono::milliseconds timeout);
  // Kills the children that have run longer than `limit_s` seconds; they end with `reason`.
  void kill_overdue(double limit_s, const std::string& reason);
  // Kills and reaps every child now.
  void kill_all();

 private:
  struct Child {
    size_t task;
    int fd;
    std::string output;
    std::chrono::steady_clock::time_point started;
    std::string kill_reason;
  };
  int capacity_;
  std::map<pid_t, Child> children_;
};

}  // namespace perflab
