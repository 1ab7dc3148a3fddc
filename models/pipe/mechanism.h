// The two candidate explanations of the slowdown, each a small state machine the tests drive directly.
//
// H2, PollTick: Git for Windows has no poll(); the gnulib emulation it compiles (git v2.28
// compat/poll/poll.c) peeks each pipe (PeekNamedPipe, poll.c:145-150) and, when nothing is ready and time
// is left, calls SleepEx(1, TRUE) and starts again (poll.c:601-603). Sleep(1) ends on the next timer tick,
// so a poll that finds upload-pack's input empty wakes on the next boundary of the tick grid
// phase + k * resolution, never sooner. (upload-pack passes a finite timeout, 1000 * keepalive = 5 s,
// upload-pack.c:136 and 370-374, not -1 as the study notes say; the sleep happens either way.)
//
// H1, CompletionDelay: the seed author's guess that IOCP holds a read that got fewer bytes than it asked for
// for a short while D to collect more, unless the pipe is full (its writer blocked). Not documented by
// Microsoft and not what NPFS does; modelled so the harness can judge it.
#pragma once

#include "models/common/enum_names.h"
#include "models/common/status.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace perflab::pipe {

enum class Mechanism { kPollTick, kCompletionDelay, kNone };
inline const EnumNames<Mechanism> kMechanismNames{"mechanism",
                                                  {{Mechanism::kPollTick, "poll-tick"},
                                                   {Mechanism::kCompletionDelay, "completion-delay"},
                                                   {Mechanism::kNone, "none"}}};

class PollTick {
 public:
  // Tick boundaries at phase + k * resolution (seconds); 0 <= phase < resolution.
  PollTick(double resolution, double phase) : resolution_(resolution), phase_(phase) {}
  // When a Sleep(1) that starts at `now` ends: the first boundary strictly after now.
  double wake_time(double now) const;
  double resolution() const { return resolution_; }

 private:
  double resolution_;
  double phase_;
};

class CompletionDelay {
 public:
  // `draw` gives one delay D in seconds per delayed read (the scenario's distribution, seeded).
  explicit CompletionDelay(std::function<double()> draw) : draw_(std::move(draw)) {}
  // A pending overlapped read has some data but less than it asked for. Returns when it completes:
  // nullopt means at once (the writer is blocked on a full pipe, or D came out 0); else now + D.
  std::optional<double> deadline(double now, bool writer_blocked);
  uint64_t delayed() const { return delayed_; }

 private:
  std::function<double()> draw_;
  uint64_t delayed_ = 0;
};

}  // namespace perflab::pipe
