// calibrate_lock_cost; see calibrate_lock_cost.h.
#include "scenarios/dispatcher/calibrate_lock_cost.h"

#include <cmath>

#include <fmt/format.h>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/markdown.h"
#include "sim/outputs.h"

namespace perflab::dispatcher_study {
namespace {

double metric(const RunRow& row, const char* name) { return row.metrics.at(name); }

// How far `fitted` moved from `before`, as ln(fitted / before) (both 0: no move).
std::string moved(double before, double fitted) {
  if (before == fitted) return "0";
  if (before <= 0 || fitted <= 0) return "—";
  return fmt::format("{:+.3f}", std::log(fitted / before));
}

}  // namespace

Result<LockCostCalibration> calibrate_lock_cost(const RunTable& table) {
  if (table.scenario == nullptr || table.scenario->engine != Engine::kReal) {
    return Status::Error("the lock cost calibration fits real-engine runs, expected engine = \"real\"");
  }
  // The cache sizes the real runs counted doublings with (the same at every point: a [params] value).
  const LockCostModel cache = knobs().options(table.params(0)).lock_cost;
  std::vector<LockCostObservation> observations;
  for (const RunRow& row : table.rows) {
    if (!row.ok()) continue;
    LockCostTally tally;
    tally.sections = static_cast<uint64_t>(metric(row, "lock_acquisitions"));
    tally.moves = static_cast<uint64_t>(metric(row, "lock_moves"));
    tally.idle_sections = static_cast<uint64_t>(metric(row, "idle_sections"));
    tally.cold_ops = static_cast<uint64_t>(metric(row, "cold_ops"));
    tally.ops = static_cast<uint64_t>(metric(row, "ops_under_lock"));
    tally.ops_doublings = metric(row, "ops_doublings");
    observations.push_back({fmt::format("{}, seed {}", point_label(*table.scenario, row.point), row.seed),
                            tally, metric(row, "lock_hold_total_s")});
  }
  auto fit = fit_lock_cost(observations, cache);
  if (!fit.ok()) return fit.status();

  const LockCostModel& was = kCalibratedLockCost;
  const LockCostModel& now = fit->model;
  MarkdownTable constants({"constant", "study default", "fitted", "ln(fitted / default)"}, "lrrr");
  constants.add({"lock_section_cost", fmt::format("{:.3g} µs", was.section_s * 1e6),
                 fmt::format("{:.3g} µs", now.section_s * 1e6), moved(was.section_s, now.section_s)});
  constants.add({"lock_move_cost", fmt::format("{:.3g} µs", was.move_s * 1e6),
                 fmt::format("{:.3g} µs", now.move_s * 1e6), moved(was.move_s, now.move_s)});
  constants.add({"lock_idle_cost", fmt::format("{:.3g} µs", was.idle_s * 1e6),
                 fmt::format("{:.3g} µs", now.idle_s * 1e6), moved(was.idle_s, now.idle_s)});
  constants.add({"cold_ns_per_op", fmt::format("{:.3g}", was.cold_ns_per_op),
                 fmt::format("{:.3g}", now.cold_ns_per_op), moved(was.cold_ns_per_op, now.cold_ns_per_op)});
  constants.add({"ns_per_op", fmt::format("{:.3g}", was.ns_per_op), fmt::format("{:.3g}", now.ns_per_op),
                 moved(was.ns_per_op, now.ns_per_op)});
  constants.add({"ns_per_op_per_doubling", fmt::format("{:.3g}", was.ns_per_op_per_doubling),
                 fmt::format("{:.3g}", now.ns_per_op_per_doubling),
                 moved(was.ns_per_op_per_doubling, now.ns_per_op_per_doubling)});
 MarkdownTable runs({"run", "sections", "moves", "after idle", "cold elements", "elements", "elements × doublings", "measured hold (s)",
                      "model (s)", "ln(model / measured)"},
                     "lrrrrrrrrr");
  for (size_t i = 0; i < observations.size(); ++i) {
    const LockCostObservation& o = observations[i];
    runs.add({o.label, std::to_string(o.tally.sections), std::to_string(o.tally.moves),
              std::to_string(o.tally.idle_sections), std::to_string(o.tally.cold_ops), std::to_string(o.tally.ops), fmt::format("{:.4g}", o.tally.ops_doublings),
              fmt::format("{:.4g}", o.measured_hold_s), fmt::format("{:.4g}", o.tally.predicted_hold_s(now)),
              fmt::format("{:+.3f}", fit->residuals[i])});
  }
  LockCostCalibration out;
  out.report = fmt::format(
      "### {}: the lock cost model's constants\n\n"
      "Method: least squares of ln(model / measured) of each run's total lock hold, every constant ≥ 0 "
      "(lock_cost_fit.h), over {} successful real runs; the working set counted against L1d = {:.0f} KiB "
      "and L2 = {:.0f} KiB.\n\n{}\nResiduals: mean |ln| {:.3f}, max {:.3f}.\n\n{}",
      table.scenario->name, observations.size(), cache.l1d_bytes / 1024, cache.l2_bytes / 1024,
      constants.str(), fit->mean_abs_log, fit->max_abs_log, runs.str());
  out.toml = fmt::format(
      "# {} fitted by `perflab calibrate dispatcher`: the lock cost model's constants (lock_cost_model.h)\n"
      "lock_section_cost = \"{:.3g}us\"\nlock_move_cost = \"{:.3g}us\"\nlock_idle_cost = \"{:.3g}us\"\n"
      "cold_ns_per_op = {:.3g}\n"
      "ns_per_op = {:.3g}\n"
      "ns_per_op_per_doubling = {:.3g}\ncache_l1d = \"{:.0f}KiB\"\ncache_l2 = \"{:.0f}KiB\"\n",
      table.scenario->name, now.section_s * 1e6, now.move_s * 1e6, now.idle_s * 1e6, now.cold_ns_per_op, now.ns_per_op, now.ns_per_op_per_doubling,
      cache.l1d_bytes / 1024, cache.l2_bytes / 1024);
  out.fit = std::move(*fit);
  return out;
}

}  // namespace perflab::dispatcher_study
