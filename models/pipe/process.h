// A simulated process (pack-objects, upload-pack, a reader) as a state machine the scheduler steps.
// step(now) runs the process until simulated time has to pass and says how: it computes for a while, sleeps
// until a time, or waits to be woken by a pipe (optionally only until a deadline). A wake that finds nothing
// changed is harmless: the process re-checks its state and waits again.
#pragma once

#include <limits>
#include <string>
#include <variant>

#include "models/pipe/pipe.h"

namespace perflab::pipe {

constexpr double kForever = std::numeric_limits<double>::infinity();

struct Compute {  // busy on its CPU for `seconds` (a handler, producing pack data)
  double seconds;
};
struct SleepUntil {  // a timer sleep (Sleep(1) until the next tick)
  double time;
};
struct Wait {  // blocked until Waker::wake, or until `deadline`
  double deadline = kForever;
};
struct Finished {};
using Action = std::variant<Compute, SleepUntil, Wait, Finished>;

// Where processes report the spans of the timeline (each read, each poll sleep, each blocked write).
class SpanSink {
 public:
  virtual ~SpanSink() = default;
  virtual void span(const std::string& track, const std::string& name, double start, double end) = 0;
};

class Process {
 public:
  virtual ~Process() = default;
  virtual Action step(double now) = 0;
  virtual const std::string& name() const = 0;
};

}  // namespace perflab::pipe
