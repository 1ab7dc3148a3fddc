// LockCostModel and LockCostTally; see lock_cost_model.h.
#include "scenarios/dispatcher/lock_cost_model.h"

#include <algorithm>
#include <cmath>

namespace perflab::dispatcher_study {

double LockCostModel::charged_running_calls(uint64_t running_calls) const {
  return std::min(static_cast<double>(running_calls), l1d_bytes / kBytesPerRunningCall);
}

SectionContext SectionContext::of(bool moved, double gap_s) {
  return {moved, gap_s > kIdleGapS ? std::log10(gap_s / kIdleGapS) : 0.0};
}

uint64_t LockCostModel::cold_ops(const dispatcher::LockedSectionReport& section, SectionContext where) {
  if (!where.moved) return 0;
  return std::min(section.ops, section.running_calls + section.ready_calls);
}

double LockCostModel::per_element_s(uint64_t running_calls) const {
  return (ns_per_op + ns_per_op_per_running_call * charged_running_calls(running_calls)) * 1e-9;
}

double LockCostModel::hold_s(const dispatcher::LockedSectionReport& section, SectionContext where) const {
  return section_s + (where.moved ? move_s : 0) + where.idle_decades * idle_s +
         static_cast<double>(cold_ops(section, where)) * cold_ns_per_op * 1e-9 +
         static_cast<double>(section.ops) * per_element_s(section.running_calls);
}

void LockCostTally::add(const LockCostModel& model, const dispatcher::LockedSectionReport& section,
                        SectionContext where) {
  ++sections;
  if (where.moved) ++moves;
  idle_decades += where.idle_decades;
  cold_ops += LockCostModel::cold_ops(section, where);
  ops += section.ops;
  ops_running_calls += static_cast<double>(section.ops) * model.charged_running_calls(section.running_calls);
}

double LockCostTally::predicted_hold_s(const LockCostModel& model) const {
  return static_cast<double>(sections) * model.section_s + static_cast<double>(moves) * model.move_s +
         idle_decades * model.idle_s +
         (static_cast<double>(cold_ops) * model.cold_ns_per_op + static_cast<double>(ops) * model.ns_per_op +
          ops_running_calls * model.ns_per_op_per_running_call) *
             1e-9;
}

}  // namespace perflab::dispatcher_study
