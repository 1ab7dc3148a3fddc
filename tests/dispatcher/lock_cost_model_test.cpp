// The lock cost model's terms (lock_cost_model.h) and the fit of its constants on synthetic runs
// (lock_cost_fit.h).
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "scenarios/dispatcher/lock_cost_fit.h"
#include "scenarios/dispatcher/lock_cost_model.h"

namespace perflab::dispatcher_study {
namespace {

using dispatcher::LockedSection;
using dispatcher::LockedSectionReport;

constexpr LockCostModel kModel{/*section_s=*/0.5e-6,
                               /*move_s=*/0.8e-6,
                               /*idle_s=*/2e-6,
                               /*cold_ns_per_op=*/12,
                               /*ns_per_op=*/3.0,
                               /*ns_per_op_per_running_call=*/0.01,
                               /*l1d_bytes=*/48 * 1024};

// Running calls whose list takes `bytes`.
uint64_t running_for(double bytes) {
  return static_cast<uint64_t>(bytes / kBytesPerRunningCall);
}

TEST(LockCostModel, AWalkIsChargedForEachRunningCallItMeetsUpToL1d) {
  EXPECT_EQ(kModel.charged_running_calls(0), 0);
  EXPECT_EQ(kModel.charged_running_calls(100), 100);
  const double fill_l1d = kModel.l1d_bytes / kBytesPerRunningCall;  // 438.9 calls at 48 KiB
  EXPECT_EQ(kModel.charged_running_calls(running_for(kModel.l1d_bytes)), 438);
  EXPECT_EQ(kModel.charged_running_calls(10000), fill_l1d);  // no more beyond L1d
  EXPECT_NEAR(kModel.per_element_s(100), (3.0 + 0.01 * 100) * 1e-9, 1e-15);
  EXPECT_NEAR(kModel.per_element_s(5000), (3.0 + 0.01 * fill_l1d) * 1e-9, 1e-15);
}

TEST(LockCostModel, HoldIsSectionPlusMovePlusElements) {
  // 100 running calls: an element costs 3 ns + 100 x 0.01 ns
  const LockedSectionReport small{LockedSection::kPromote, 10, 100, 5};
  // Re-taken by the thread that released it: no move, and its elements are not cold.
  EXPECT_DOUBLE_EQ(kModel.hold_s(small, {}), 0.5e-6 + 10 * 4e-9);
  EXPECT_DOUBLE_EQ(kModel.hold_s(small, {true, false}), 0.5e-6 + 0.8e-6 + 10 * 12e-9 + 10 * 4e-9);
  // The lock free for 10 ms before it: two decades beyond kIdleGapS.
  EXPECT_NEAR(kModel.hold_s(small, SectionContext::of(true, 10e-3)),
              0.5e-6 + 0.8e-6 + 2 * 2e-6 + 10 * 12e-9 + 10 * 4e-9, 1e-15);
  EXPECT_EQ(SectionContext::of(false, kIdleGapS / 2).idle_decades, 0);
  // A walk that repeats: only the first pass over the 105 listed calls is cold, and only after a move.
  const LockedSectionReport long_walk{LockedSection::kPromote, 5000, 100, 5};
  EXPECT_EQ(LockCostModel::cold_ops(long_walk, {true, 0}), 105u);
  EXPECT_EQ(LockCostModel::cold_ops(long_walk, {false, 0}), 0u);
  EXPECT_NEAR(kModel.hold_s(long_walk, {true, 0}), 0.5e-6 + 0.8e-6 + 105 * 12e-9 + 5000 * 4e-9, 1e-15);
  EXPECT_NEAR(kModel.hold_s(long_walk, {}), 0.5e-6 + 5000 * 4e-9, 1e-15);
  const LockedSectionReport empty{LockedSection::kSetLimit, 0, 0, 0};
  EXPECT_DOUBLE_EQ(kModel.hold_s(empty, {}), 0.5e-6);
}

TEST(LockCostModel, TallyPredictsTheSumOfTheHoldsItCounted) {
  LockCostTally tally;
  double charged = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    const LockedSectionReport s{LockedSection::kEnqueue, i * 37 % 1000, i * 29 % 3000, 0};
    const SectionContext where =
        SectionContext::of(i % 3 == 0, i % 5 == 0 ? 1e-3 * static_cast<double>(i) : 0);
    charged += kModel.hold_s(s, where);
    tally.add(kModel, s, where);
  }
  EXPECT_EQ(tally.sections, 200u);
  EXPECT_EQ(tally.moves, 67u);
  EXPECT_GT(tally.idle_decades, 40);
  EXPECT_NEAR(tally.predicted_hold_s(kModel), charged, 1e-12 * charged);
}

// Runs shaped like the calibration's: many short sections (counter, indexed), few long ones (scan), with
// running lists within and beyond L1d.
std::vector<LockCostObservation> synthetic_runs(const LockCostModel& truth, double noise, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> ln_noise(0, noise);
  std::vector<LockCostObservation> runs;
  for (int r = 0; r < 12; ++r) {
    LockCostTally tally;
    const uint64_t running = 30 + 40 * static_cast<uint64_t>(r);  // 3.4 KB to 53 KB of list
    const uint64_t ops_per_section = r % 3 == 0 ? 2 : (r % 3 == 1 ? 300 : 200000);
    const uint64_t ready = 40 * static_cast<uint64_t>(r % 5);
    for (int s = 0; s < 2000; ++s) {
      tally.add(
          truth, {LockedSection::kPromote, ops_per_section + static_cast<uint64_t>(s % 7), running, ready},
          SectionContext::of(s % (2 + (r / 3) % 4) == 0, s % (3 + r % 4) == 0 ? 1e-3 * (1 + r % 5) : 0));
    }
    runs.push_back(
        {"run " + std::to_string(r), tally, tally.predicted_hold_s(truth) * std::exp(ln_noise(rng))});
  }
  return runs;
}

TEST(LockCostFit, RecoversTheConstantsOfNoiselessRuns) {
  auto fit = fit_lock_cost(synthetic_runs(kModel, 0, 1), kModel);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_NEAR(fit->model.section_s, kModel.section_s, 1e-3 * kModel.section_s);
  EXPECT_NEAR(fit->model.move_s, kModel.move_s, 1e-3 * kModel.move_s);
  EXPECT_NEAR(fit->model.idle_s, kModel.idle_s, 1e-3 * kModel.idle_s);
  EXPECT_NEAR(fit->model.cold_ns_per_op, kModel.cold_ns_per_op, 1e-3 * kModel.cold_ns_per_op);
  EXPECT_NEAR(fit->model.ns_per_op, kModel.ns_per_op, 1e-3 * kModel.ns_per_op);
  EXPECT_NEAR(fit->model.ns_per_op_per_running_call, kModel.ns_per_op_per_running_call, 1e-5);
  EXPECT_LT(fit->max_abs_log, 1e-6);
  ASSERT_EQ(fit->residuals.size(), 12u);
}

TEST(LockCostFit, WeighsShortSectionsAsMuchAsLongOnes) {
  // 5% multiplicative noise: an absolute least-squares fit would let the 200,000-element runs set every
  // constant and leave the 2-element runs far off; the log fit keeps every run within a few noise widths.
  auto fit = fit_lock_cost(synthetic_runs(kModel, 0.05, 7), kModel);
  ASSERT_TRUE(fit.ok());
  EXPECT_LT(fit->max_abs_log, 0.2);
  EXPECT_NEAR(fit->model.section_s, kModel.section_s, 0.25 * kModel.section_s);
  EXPECT_NEAR(fit->model.ns_per_op, kModel.ns_per_op, 0.1 * kModel.ns_per_op);
}

TEST(LockCostFit, KeepsEveryConstantNonNegative) {
  LockCostModel no_move = kModel;
  no_move.move_s = 0;
  no_move.cold_ns_per_op = 0;
  no_move.idle_s = 0;
  no_move.ns_per_op_per_running_call = 0;
  auto fit = fit_lock_cost(synthetic_runs(no_move, 0.1, 3), kModel);
  ASSERT_TRUE(fit.ok());
  EXPECT_GE(fit->model.section_s, 0);
  EXPECT_GE(fit->model.move_s, 0);
  EXPECT_GE(fit->model.idle_s, 0);
  EXPECT_GE(fit->model.cold_ns_per_op, 0);
  EXPECT_GE(fit->model.ns_per_op, 0);
  EXPECT_GE(fit->model.ns_per_op_per_running_call, 0);
  EXPECT_EQ(fit->model.l1d_bytes, kModel.l1d_bytes);  // the cache sizes are the tallies', kept
}

TEST(LockCostFit, RefusesTooFewRunsAndNonPositiveHolds) {
  auto runs = synthetic_runs(kModel, 0, 1);
  auto few = fit_lock_cost({runs.begin(), runs.begin() + 3}, kModel);
  ASSERT_FALSE(few.ok());
  EXPECT_NE(few.status().message().find("at least 6 runs, got 3"), std::string::npos);
  runs[5].measured_hold_s = 0;
  auto zero = fit_lock_cost(runs, kModel);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.status().message().find("run run 5"), std::string::npos) << zero.status().message();
}

}  // namespace
}  // namespace perflab::dispatcher_study
