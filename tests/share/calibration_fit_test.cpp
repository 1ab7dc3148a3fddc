// share's calibration fit (`perflab calibrate share`, scenarios/share/calibration_fit.cpp) on synthetic runs
// of calibrate-real.toml's grid: the real client's own time is a cost per message of calls, a cost per wait
// (a round trip's wake-ups) and a cost per byte, each fitted on the points it dominates; a coalesced and a
// readv run of the same messages get the same prediction, whatever their calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "scenarios/share/share_study.h"
#include "sim/runner/run_table.h"
#include "sim/scenario/scenario.h"
#include "tests/sim/run_rows.h"

namespace perflab::share_study {
namespace {

constexpr double kMessageSeconds = 7e-6;  // the synthetic client's own cost per message
constexpr double kWaitSeconds = 80e-6;    // per wait
constexpr double kByteSeconds = 1.5e-9;   // and per byte

// A run's counts and its duration.
Metrics counts(double messages, double waits, double bytes, double duration_s) {
  return {{"call_messages", messages}, {"waits", waits}, {"bytes_read", bytes}, {"duration_s", duration_s}};
}

// calibrate-real.toml's points and seeds, with counts of the calls' kind: the message points send 40
// messages a wait of 0.8 KiB each, the wait points 2 of 8 KiB, the byte points 2 of 512 KiB. The sim's
// duration is a constant; the real run's adds its own time.
struct SyntheticRuns {
  Scenario scenario;
  RunTable real, sim;
  explicit SyntheticRuns(double message_seconds = kMessageSeconds) {
    auto loaded = load_scenario(std::string(PERFLAB_SCENARIOS) + "/share/calibrate-real.toml", {});
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    scenario = std::move(loaded).value();
    real.scenario = sim.scenario = &scenario;
    for (size_t p = 0; p < scenario.grid.size(); ++p) {
      const auto k = scenario.grid[p].params.integer("k");
      const auto n = scenario.grid[p].params.integer("n");
      const double waits = k == 40 ? 66 : n == 3 ? 66 : 18;
      const double messages = waits * static_cast<double>(k);
      const double bytes = messages * (k == 40 ? 800 : n == 3 ? 8 * 1024 : 512 * 1024);
      for (int r = 0; r < scenario.seeds; ++r) {
        const double sim_s = 0.1 + 0.001 * r;
        const double real_s =
            sim_s + message_seconds * messages + kWaitSeconds * waits + kByteSeconds * bytes;
        sim.rows.push_back(testing::ok_row(scenario, p, r, counts(messages, waits, bytes, sim_s)));
        real.rows.push_back(testing::ok_row(scenario, p, r, counts(messages, waits, bytes, real_s)));
      }
    }
  }
};

double constant(const CalibrationFit& fit, const std::string& name) {
  auto found = std::find_if(fit.constants.begin(), fit.constants.end(),
                            [&](const CalibratedConstant& c) { return c.param == name; });
  EXPECT_NE(found, fit.constants.end()) << name;
  return found == fit.constants.end() ? NAN : found->value;
}

TEST(ShareCalibrationFit, RecoversTheCostPerMessagePerWaitAndPerByte) {
  SyntheticRuns runs;
  auto fit = calibration_fit().fit({{&runs.real, &runs.sim}}, nullptr);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_NEAR(constant(*fit, "native_message_cost"), 7.0, 0.01);  // us
  EXPECT_NEAR(constant(*fit, "native_wait_cost"), 80.0, 0.01);    // us
  EXPECT_NEAR(constant(*fit, "native_ns_per_byte"), 1.5, 0.01);
  ASSERT_EQ(fit->residuals.size(), runs.real.rows.size());
  for (const auto& residual : fit->residuals) {
    EXPECT_NEAR(std::log(residual.measured / residual.fitted), 0.0, 1e-3) << residual.point;
  }
}

// On a loaded machine the message points can run faster than the waits and bytes leave room for: the
// message cost is then 0, not negative (a value the sim would refuse, ending validate's in-window fit).
TEST(ShareCalibrationFit, ACostIsNeverBelowZero) {
  SyntheticRuns runs(-2e-6);
  auto fit = calibration_fit().fit({{&runs.real, &runs.sim}}, nullptr);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_EQ(constant(*fit, "native_message_cost"), 0.0);
  EXPECT_GE(constant(*fit, "native_wait_cost"), 0.0);
  EXPECT_GE(constant(*fit, "native_ns_per_byte"), 0.0);
}

TEST(ShareCalibrationFit, AtCommittedConstantsItOnlyScoresThem) {
  SyntheticRuns runs;
  const std::vector<CalibratedConstant> committed{
      {"native_message_cost", 14.0, ""}, {"native_wait_cost", 80.0, ""}, {"native_ns_per_byte", 1.5, ""}};
  auto fit = calibration_fit().fit({{&runs.real, &runs.sim}}, &committed);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_DOUBLE_EQ(constant(*fit, "native_message_cost"), 14.0);
  double worst = 0;
  for (const auto& residual : fit->residuals) {
    worst = std::max(worst, std::abs(std::log(residual.measured / residual.fitted)));
  }
  EXPECT_GT(worst, 0.05);  // twice the message cost is visible at the message points
}

// `perflab calibrate --windows 2`: one fit on both windows' runs, whose residuals name their window.
TEST(ShareCalibrationFit, FitsOnceOnEveryWindowsRuns) {
  SyntheticRuns quick_window, slow_window(9e-6);
  auto fit = calibration_fit().fit({{&quick_window.real, &quick_window.sim, "window 1 of 2, 19:00 UTC"},
                                    {&slow_window.real, &slow_window.sim, "window 2 of 2, 19:05 UTC"}},
                                   nullptr);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_NEAR(constant(*fit, "native_message_cost"), 8.0, 0.05);  // between the windows' 7 and 9 us
  ASSERT_EQ(fit->residuals.size(), 2 * quick_window.real.rows.size());
  const auto named = [&](const std::string& window) {
    return std::count_if(fit->residuals.begin(), fit->residuals.end(), [&](const CalibrationResidual& r) {
      return r.point.find(", seed ") != std::string::npos && r.point.find(window) != std::string::npos;
    });
  };
  EXPECT_EQ(named("window 1 of 2, 19:00 UTC"), static_cast<long>(quick_window.real.rows.size()));
  EXPECT_EQ(named("window 2 of 2, 19:05 UTC"), static_cast<long>(slow_window.real.rows.size()));
}

TEST(ShareCalibrationFit, RefusesRunsWithoutEveryKindOfPoint) {
  SyntheticRuns runs;
  auto drop = [](RunTable& table) {
    table.rows.erase(std::remove_if(table.rows.begin(), table.rows.end(),
                                    [&](const RunRow& row) {
                                      return table.scenario->grid[row.point].params.integer("n") == 4;
                                    }),
                     table.rows.end());
  };
  drop(runs.real);
  drop(runs.sim);
  auto fit = calibration_fit().fit({{&runs.real, &runs.sim}}, nullptr);
  ASSERT_FALSE(fit.ok());
  EXPECT_NE(fit.status().message().find("at byte points (more bytes): got 10, 10 and 0"), std::string::npos)
      << fit.status().message();
}

}  // namespace
}  // namespace perflab::share_study
