// Runs a piece of work in a forked child and brings its timing back through a pipe. SimGrid allows one
// engine per process, so every simulated run a benchmark measures must happen in a child of its own.
#pragma once

#include <functional>
#include <string>

namespace perflab::perf {

// What the child measured: its own wall time for the work, and a check value (e.g. simulated seconds).
struct ChildTiming {
  double seconds = 0;
  double check = 0;
};

struct ChildOutcome {
  ChildTiming timing;
  double fork_to_reap_s = 0;  // parent's view: fork, the whole child, waitpid
  std::string error;          // empty when the child reported a timing and exited with status 0
};

// `work` runs in the child; it returns its timing, or a negative `seconds` after printing why on stderr.
ChildOutcome run_in_child(const std::function<ChildTiming()>& work);

}  // namespace perflab::perf
