// The prefetch study's calibration fit (scenarios/prefetch/calibration_fit.cpp) on synthetic rows of its
// shipped calibration scenario: exchange_overhead is the median over runs of (real - sim) / rpcs, the sim
// being the one at the probed wake-up (the table records it, and each residual carries its point's); with
// a committed value it does not fit but says how well that value fits these runs.
#include <gtest/gtest.h>

#include <cmath>

#include "scenarios/prefetch/prefetch_study.h"
#include "sim/runner/run_table.h"
#include "sim/scenario/scenario.h"
#include "tests/sim/run_rows.h"

namespace perflab::prefetch_study {
namespace {

// Rows of `scenario`'s grid x seeds: duration_s and rpcs from `duration` and `rpcs` of (point, replication).
template <class Duration>
RunTable table(const Scenario& scenario, Duration duration, double rpcs) {
  RunTable out = RunTable::empty(scenario);
  for (size_t p = 0; p < scenario.grid.size(); ++p) {
    for (int r = 0; r < scenario.seeds; ++r) {
      out.rows.push_back(testing::ok_row(scenario, p, r, {{"duration_s", duration(p, r)}, {"rpcs", rpcs}}));
    }
  }
  return out;
}

struct Fixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_scenario(std::string(PERFLAB_SCENARIOS) + "/prefetch/calibrate.toml", {});
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    scenario.emplace(std::move(loaded).value());
  }
  std::optional<Scenario> scenario;
};

using CalibrationFit_ = Fixture;

TEST_F(CalibrationFit_, TheOverheadIsTheMedianExcessPerRpcOverTheSimAtTheProbedWakeUp) {
  const Scenario& s = *scenario;
  ASSERT_EQ(s.grid.size(), 4u);
  ASSERT_EQ(s.seeds, 3);
  constexpr double kRpcs = 200;
  // The sim at the probed wake-up; the real runs 40..62 µs per RPC above it (12 runs, 2 µs apart: median
  // between the 6th and 7th, 51 µs).
  const auto sim_duration = [](size_t p, int r) { return 1.0 + 0.5 * static_cast<double>(p) + 0.001 * r; };
  RunTable sim = table(s, sim_duration, kRpcs);
  sim.wake_up = {40e-6, 42e-6, 44e-6, 46e-6};
  const RunTable real = table(
      s,
      [&](size_t p, int r) {
        const double excess = (40 + 2 * static_cast<double>(p * 3 + static_cast<size_t>(r))) * 1e-6;
        return sim_duration(p, r) + excess * kRpcs;
      },
      kRpcs);
  const CalibrationHook hook = calibration_fit();
  ASSERT_TRUE(hook.needs_sim);
  auto fit = hook.fit({{&real, &sim}}, nullptr);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  ASSERT_EQ(fit->constants.size(), 1u);
  EXPECT_EQ(fit->constants[0].param, "exchange_overhead");
  EXPECT_EQ(fit->constants[0].unit, "ms");
  EXPECT_NEAR(fit->constants[0].value, 0.051, 1e-12);
  EXPECT_NE(fit->method.find("wake-up latency, probed before the real runs"), std::string::npos)
      << fit->method;
  ASSERT_EQ(fit->residuals.size(), 12u);
  for (size_t i = 0; i < 12; ++i) {
    const CalibrationResidual& r = fit->residuals[i];
    ASSERT_TRUE(r.wake_up.has_value()) << r.point;
    EXPECT_DOUBLE_EQ(*r.wake_up, sim.wake_up[i / 3]) << r.point;
    EXPECT_DOUBLE_EQ(r.fitted, sim_duration(i / 3, static_cast<int>(i % 3)) + 51e-6 * kRpcs) << r.point;
  }
  EXPECT_NE(fit->residuals[0].point.find("seed 101"), std::string::npos) << fit->residuals[0].point;

  // A committed value: no fit, its residuals on these runs.
  const std::vector<CalibratedConstant> committed = {{"exchange_overhead", 0.06, "ms"}};
  auto again = hook.fit({{&real, &sim}}, &committed);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_DOUBLE_EQ(again->constants[0].value, 0.06);
  EXPECT_DOUBLE_EQ(again->residuals[0].fitted, sim_duration(0, 0) + 60e-6 * kRpcs);
}

TEST_F(CalibrationFit_, ARunThatFailedInEitherEngineIsLeftOutAndNoneLeftIsAnError) {
  const Scenario& s = *scenario;
  RunTable sim = table(
      s, [](size_t, int) { return 1.0; }, 100);
  RunTable real = table(
      s, [](size_t, int) { return 1.01; }, 100);  // 0.1 ms per RPC
  real.rows[0].outcome = Outcome::kFailed;
  sim.rows[1].outcome = Outcome::kFailed;
  real.rows[2].metrics["duration_s"] = 9;  // an outlier, which the median leaves aside
  auto fit = calibration_fit().fit({{&real, &sim}}, nullptr);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_EQ(fit->residuals.size(), 10u);
  EXPECT_NEAR(fit->constants[0].value, 0.1, 1e-9);
  EXPECT_FALSE(fit->residuals[0].wake_up.has_value());  // a sim run without a probe records none
  for (auto& row : real.rows) row.outcome = Outcome::kFailed;
  EXPECT_FALSE(calibration_fit().fit({{&real, &sim}}, nullptr).ok());
}

}  // namespace
}  // namespace perflab::prefetch_study
