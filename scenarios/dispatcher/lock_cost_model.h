// What one locked section of the Dispatcher costs, in seconds of lock hold. The simulated monitor charges
// it (simulated_monitor.h); the real monitor tallies what the same formula multiplies (real_monitor.h), so
// a calibration can fit the constants to real holds (lock_cost_fit.h) and a validation can compare them.
//
//   hold = section + (moved ? move + cold elements x cold : 0) + idle decades x idle
//          + ops x per_element(working set)
//
//   section      every section: taking and releasing the lock, the section's own bookkeeping
//   move         the section's thread is not the one that held the lock last: the lock word and the lists'
//                lines were last written by another thread, often on the other core
//   idle         per decade the lock had been free beyond kIdleGapS before the section, log10(gap /
//   kIdleGapS):
//                the process had gone quiet, and its lines and the cores' state went cold (on a quiet
//                machine a section that moved the lock held it ~0.3 us after a 0.1-0.3 ms gap, ~0.6-0.8 us
//                after 1-10 ms and ~1.5 us after more: scenarios/dispatcher/NOTES.md)
//   cold         more per element the first time a section that moved the lock reaches it: min(ops, calls
//                listed) of its elements were last touched on another thread's core; a walk that repeats
//                (scan's per-host count, once per ready call) finds the rest warm, and a section re-taken by
//                the thread that just released the lock (the promotion after its own enqueue or finished)
//                finds the lines where its previous section left them — the per-section trace of the real
//                engine (NOTES.md): counter's promotion re-walking a 400-call ready queue costs ~7 ns an
//                element there, the same walk after a move 25-30 ns more
//   per_element  ns per element touched (op_counter.h): `ns_per_op`, plus `ns_per_op_per_running_call` for
//                each running call the walk meets, up to as many as fill the L1 data cache (l1d_bytes /
//                kBytesPerRunningCall, 439 calls at 48 KiB) and no more beyond: the real threads' cost per
//                element rises about linearly with the running list from ~2.5 ns under 100 calls to ~7 ns
//                near 440, then stays there up to 700 (element_cost.py on real section traces,
//                results/dispatcher/element-cost/). A fit, not the mechanism: what sets an element's cost
//                is mostly where its node lies (glibc's per-thread arenas spread the list over pages:
//                results/dispatcher/malloc-arenas/), which the model does not see; no calibration point
//                reaches where the list would outgrow L2 (~9,400 calls)
//   working set  the running calls when the section took the lock x kBytesPerRunningCall: the list that
//                every per-host count walks (scan's promotion walks it once per ready call)
#pragma once

#include <cstdint>

#include "models/dispatcher/dispatcher.h"

namespace perflab::dispatcher_study {

// Bytes a running call occupies in the list walks: its std::list node (two pointers and the CallPtr, a
// 48-byte malloc chunk) and the Call it points to (one 64-byte line, call.h).
constexpr double kBytesPerRunningCall = 48 + 64;
// How long the lock must have been free for a section to start paying the idle term.
constexpr double kIdleGapS = 100e-6;
// The gap a run's first section is charged for, in both engines: the lock was never held before it, and
// the process had been quiet since it started its threads (the real engine's clock starts 0.2 s after).
constexpr double kFirstSectionGapS = 1.0;

// Where a section stands: what the model's per-section terms depend on.
struct SectionContext {
  bool moved = false;       // another thread held the lock last
  double idle_decades = 0;  // log10(how long the lock was free / kIdleGapS), 0 below kIdleGapS

  // The context of a section entered `gap_s` after the lock's last release.
  static SectionContext of(bool moved, double gap_s);
};

struct LockCostModel {
  double section_s = 0;
  double move_s = 0;
  double idle_s = 0;
  double cold_ns_per_op = 0;
  double ns_per_op = 0;
  double ns_per_op_per_running_call = 0;
  double l1d_bytes = 48 * 1024;

  // The running calls a walk is charged for: all of them, up to as many as fill L1d (what
  // ns_per_op_per_running_call multiplies).
  double charged_running_calls(uint64_t running_calls) const;
  // The elements charged `cold`: none unless the section moved the lock.
  static uint64_t cold_ops(const dispatcher::LockedSectionReport& section, SectionContext where);
  double per_element_s(uint64_t running_calls) const;
  double hold_s(const dispatcher::LockedSectionReport& section, SectionContext where) const;
};

// A run's sums of what the formula multiplies, so that its total hold is
//   sections x section + moves x move + idle_decades x idle + cold_ops x cold + ops x ns_per_op
//   + ops_running_calls x ns_per_op_per_running_call.
struct LockCostTally {
  uint64_t sections = 0;
  uint64_t moves = 0;
  double idle_decades = 0;
  uint64_t cold_ops = 0;
  uint64_t ops = 0;
  double ops_running_calls = 0;  // sum over sections of ops x charged_running_calls

  void add(const LockCostModel& model, const dispatcher::LockedSectionReport& section, SectionContext where);
  double predicted_hold_s(const LockCostModel& model) const;
};

}  // namespace perflab::dispatcher_study
