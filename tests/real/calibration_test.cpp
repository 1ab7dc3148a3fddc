// `perflab calibrate`'s shared parts (sim/gate/calibration_record.h) on synthetic data: the committed file
// read back as written, and the printout saying how far a re-derived constant moved.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "sim/gate/calibration_record.h"

namespace perflab {
namespace {
namespace fs = std::filesystem;

TEST(Calibration, TheFileReadsBackAsWritten) {
  CalibrationFit fit;
  fit.method = "median of \"something\"";
  fit.constants = {{"exchange_overhead", 0.19, "ms"}, {"ns_per_op", 5.9, ""}};
  fit.residuals = {{"prefetch_depth=4, seed 101", 2.0, 1.9}};
  const fs::path file =
      fs::temp_directory_path() / ("calibration_test_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << calibration_toml(fit, "prefetch-calibrate", "ran today");
  auto read = read_calibration(file);
  fs::remove(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].param, "exchange_overhead");
  EXPECT_EQ((*read)[0].toml_value(), "\"0.19ms\"");
  EXPECT_EQ((*read)[1].toml_value(), "5.9");
  const std::string csv = calibration_csv(fit);
  EXPECT_EQ(csv.rfind("point,measured,fitted,log_error\n\"prefetch_depth=4, seed 101\",2,1.9,0.05129", 0), 0u)
      << csv;
}

// A value the sim ran with that was measured, not fitted (the probed wake-up): the file records its range
// and how it was measured apart from the constants, which alone validate reads back; the points file gives
// each run's wake-up, its log_error still last.
TEST(Calibration, AMeasuredValueIsRecordedApartFromTheConstants) {
  CalibrationFit fit;
  fit.method = "m";
  fit.constants = {{"exchange_overhead", 0.05, "ms"}};
  fit.residuals = {{"a, seed 1", 2.0, 1.9, 41e-6}, {"b, seed 1", 2.0, 2.0, 47e-6}};
  fit.measured = {{"wake_up", 0.041, 0.047, "ms", "median lateness of 201 sleeps"}};
  const fs::path file =
      fs::temp_directory_path() / ("calibration_measured_" + std::to_string(::getpid()) + ".toml");
  const std::string toml = calibration_toml(fit, "x", "ran today");
  EXPECT_NE(toml.find("[measured]\nwake_up = { low = 0.041, high = 0.047, unit = \"ms\", how = "
                      "'median lateness of 201 sleeps' }\n"),
            std::string::npos)
      << toml;
  std::ofstream(file) << toml;
  auto read = read_calibration(file);
  fs::remove(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ((*read)[0].param, "exchange_overhead");

  const std::string csv = calibration_csv(fit);
  EXPECT_EQ(csv.rfind("point,wake_up_s,measured,fitted,log_error\n\"a, seed 1\",4.1e-05,2,1.9,0.05129", 0),
            0u)
      << csv;
  const fs::path points =
      fs::temp_directory_path() / ("calibration_measured_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(points) << csv;
  auto residuals = read_calibration_residuals(points);
  fs::remove(points);
  ASSERT_TRUE(residuals.ok()) << residuals.status().message();
  ASSERT_EQ(residuals->size(), 2u);
  EXPECT_NEAR((*residuals)[0], std::log(2.0 / 1.9), 1e-12);
  EXPECT_EQ((*residuals)[1], 0.0);

  const std::string text = calibration_text(fit, std::nullopt);
  EXPECT_NE(
      text.find("measured, not fitted: wake_up = 0.041–0.047 ms over the points (median lateness of 201 "
                "sleeps)"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("| a, seed 1 | 41.0 µs | 2 | 1.9 | 0.0513 |"), std::string::npos) << text;
}

// What calibrate says before its first run: the time the committed file's record states, or that it states
// none.
TEST(Calibration, TheRecordStatesTheRunsWallTime) {
  const fs::path file =
      fs::temp_directory_path() / ("calibration_time_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << calibration_toml(CalibrationFit{}, "x",
                                          "ran today: perflab calibrate x (wall time 32 s)");
  EXPECT_EQ(stated_wall_time(file), 32.0);
  std::ofstream(file) << calibration_toml(CalibrationFit{}, "x", "ran today: perflab calibrate x");
  EXPECT_EQ(stated_wall_time(file), std::nullopt);
  fs::remove(file);
  EXPECT_EQ(stated_wall_time(file), std::nullopt);
}

// A run of several studies in windows states its wall time in each study's file; since calibrate records
// each study's own runs too, a window of one study is that, not the whole run's share.
TEST(Calibration, TheRecordStatesEachStudysOwnTimeAWindow) {
  const fs::path file =
      fs::temp_directory_path() / ("calibration_own_time_" + std::to_string(::getpid()) + ".toml");
  CalibrationFit fit;
  fit.windows =
      windows_description(5, 180, {"18:33 UTC", "18:38 UTC", "18:44 UTC", "18:49 UTC", "18:54 UTC"});
  std::ofstream(file) << calibration_toml(
      fit, "x", "ran today on a host: perflab calibrate --windows 5 (wall time 1392 s)");
  auto before = stated_calibration_run(file);
  ASSERT_TRUE(before.has_value());
  EXPECT_DOUBLE_EQ(before->seconds_a_window(), (1392.0 - 4 * 180) / 5);  // every study's runs of a window
  std::ofstream(file) << calibration_toml(
      fit, "x",
      "ran today on a host: perflab calibrate --windows 5 (wall time 1392 s; x's runs 98 s a window)");
  auto now = stated_calibration_run(file);
  ASSERT_TRUE(now.has_value());
  EXPECT_DOUBLE_EQ(now->seconds_a_window(), 98.0);
  EXPECT_NE(now->record, before->record);  // so calibrate counts each study's own time once
  fs::remove(file);
}

TEST(Calibration, ABadFileSaysWhatIsWrong) {
  const fs::path file =
      fs::temp_directory_path() / ("calibration_bad_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << "[constants]\nexchange_overhead = \"0.19ms\"\n";
  auto read = read_calibration(file);
  fs::remove(file);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(
      read.status().message().find("constants.exchange_overhead must be { value = NUMBER, unit = \"UNIT\" }"),
      std::string::npos)
      << read.status().message();
}

TEST(Calibration, ThePrintoutSaysHowFarEachConstantMoved) {
  CalibrationFit fit;
  fit.method = "m";
  fit.constants = {{"exchange_overhead", 0.209, "ms"}};
  fit.residuals = {{"a", 1.1, 1.0}, {"b", 1.0, 1.0}};
  std::string text =
      calibration_text(fit, std::vector<CalibratedConstant>{{"exchange_overhead", 0.19, "ms"}});
  EXPECT_NE(text.find("method: m\n"), std::string::npos) << text;
  EXPECT_NE(text.find("exchange_overhead = 0.209 ms (committed 0.19: moved +10.0%)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("| a | 1.1 | 1 | 0.0953 |"), std::string::npos) << text;
  EXPECT_NE(text.find("residuals over 2 points: mean |ln| 0.0477, max 0.0953"), std::string::npos) << text;
}

// The committed constants re-derive when their worst residual on new runs is within their own fit's worst;
// the calibration file records the verdict with the figures it rests on.
TEST(Calibration, ReDerivedWhenTheCommittedConstantsFitNewRunsWithinTheirOwnResidual) {
  const std::vector<CalibrationResidual> here = {{"a", 1.02, 1.0}, {"b", 1.0, 1.01}};
  const auto within = rederive(here, {0.01, -0.03}, "results/x/x.calibration.toml");
  ASSERT_TRUE(within.has_value());
  EXPECT_TRUE(within->rederived());
  EXPECT_NE(rederivation_text(*within).find("max 0.0198, against their own fit's max 0.0300: "
                                            "re-derived (within its residual)"),
            std::string::npos)
      << rederivation_text(*within);
  const auto beyond = rederive(here, {0.01}, "results/x/x.calibration.toml");
  EXPECT_FALSE(beyond->rederived());
  EXPECT_NE(rederivation_text(*beyond).find("**not re-derived** (beyond its residual)"), std::string::npos);
  EXPECT_FALSE(rederive({}, {0.01}, "results/x/x.calibration.toml").has_value());

  CalibrationFit fit;
  fit.constants = {{"exchange_overhead", 0.2, "ms"}};
  EXPECT_EQ(calibration_toml(fit, "x", "", std::nullopt).find("[rederivation]"), std::string::npos);
  const std::string toml = calibration_toml(fit, "x", "", beyond);
  EXPECT_NE(toml.find("[rederivation]\ncommitted = 'results/x/x.calibration.toml'\nmean_abs_ln = 0.0149\n"
                      "max_abs_ln = 0.0198\nown_max_abs_ln = 0.0100\nverdict = \"not re-derived\"\n"),
            std::string::npos)
      << toml;
  const fs::path file =
      fs::temp_directory_path() / ("calibration_rederived_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << toml;
  auto read = read_calibration(file);  // still TOML, its constants as before
  fs::remove(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->size(), 1u);
}

// One run far from its fit while every other is close (a stall) would set the bound every later re-derivation
// is judged against: the printout names it, and a re-derivation against such a fit says so.
TEST(Calibration, AWorstResidualStandingAloneIsNamed) {
  EXPECT_FALSE(lone_worst({0.1, -0.2, 0.5}).has_value());  // far, but not alone: 0.5 < 3 x 0.2
  EXPECT_FALSE(lone_worst({0.01, 0.6}).has_value());       // alone, but within ln 2 of its fit
  EXPECT_FALSE(lone_worst({3.0}).has_value());             // nothing to stand apart from
  const auto lone = lone_worst({0.39, -0.03, 3.27, 0.2});
  ASSERT_TRUE(lone.has_value());
  EXPECT_DOUBLE_EQ(lone->first, 3.27);
  EXPECT_DOUBLE_EQ(lone->second, 0.39);

  CalibrationFit fit;
  fit.method = "m";
  fit.constants = {{"c", 1, ""}};
  fit.residuals = {{"a", 1.1, 1.0}, {"stalled", 26.0, 1.0}, {"b", 1.0, 1.2}};
  const std::string text = calibration_text(fit, std::nullopt);
  EXPECT_NE(text.find("one point stands alone: stalled at |ln| 3.2581, the next worst 0.1823"),
            std::string::npos)
      << text;
  fit.residuals.erase(fit.residuals.begin() + 1);
  EXPECT_EQ(calibration_text(fit, std::nullopt).find("stands alone"), std::string::npos);

  const auto vacuous = rederive({{"a", 1.5, 1.0}}, {0.39, 3.27}, "results/x/x.calibration.toml");
  ASSERT_TRUE(vacuous.has_value());
  EXPECT_TRUE(vacuous->rederived());  // the rule is unchanged; the reader is told what it rests on
  EXPECT_NE(rederivation_text(*vacuous).find("against their own fit's max 3.2700 (one run's, standing alone: "
                                             "the next worst was 0.3900)"),
            std::string::npos)
      << rederivation_text(*vacuous);
  EXPECT_NE(calibration_toml(fit, "x", "", vacuous).find("the next worst was 0.3900"), std::string::npos);
}

// A constant fitted at zero again, or away from a committed zero, has no percentage to print.
TEST(Calibration, AConstantAtZeroSaysUnchangedOrMovedFromZero) {
  CalibrationFit fit;
  fit.method = "m";
  fit.constants = {{"lock_section_cost", 0, "us"}, {"lock_idle_cost", 2.5, "us"}};
  std::string text = calibration_text(
      fit, std::vector<CalibratedConstant>{{"lock_section_cost", 0, "us"}, {"lock_idle_cost", 0, "us"}});
  EXPECT_NE(text.find("lock_section_cost = 0 us (committed 0: unchanged)"), std::string::npos) << text;
  EXPECT_NE(text.find("lock_idle_cost = 2.5 us (committed 0: moved from zero)"), std::string::npos) << text;
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
}

}  // namespace
}  // namespace perflab
