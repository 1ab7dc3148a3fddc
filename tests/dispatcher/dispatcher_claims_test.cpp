// The dispatcher's claims on its micro-engine scenarios (dispatcher_claims.cpp): an exponent is claimed only
// where the grid sweeps enough sizes of the line, and a line whose sizes did not all finish claims NaN, so
// `perflab check` fails it rather than passing it by silence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/runner/run_table.h"
#include "sim/scenario/scenario.h"

namespace perflab::dispatcher_study {
namespace {

// adversarial.toml narrowed to scan on the round robin at `sizes`; a row of `seconds` = n² × 1e-9 at each
// size not in `unfinished`.
struct Narrowed {
  Scenario scenario;
  RunTable table;
  Narrowed(const std::string& sizes, const std::vector<size_t>& unfinished = {}) {
    auto loaded = load_scenario(
        std::string(PERFLAB_SCENARIOS) + "/dispatcher/adversarial.toml",
        {{"sweep.strategy", "[\"scan\"]"}, {"sweep.workload", "[\"round_robin\"]"}, {"sweep.n", sizes}});
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    scenario = std::move(loaded).value();
    table.scenario = &scenario;
    for (size_t p = 0; p < scenario.grid.size(); ++p) {
      if (std::find(unfinished.begin(), unfinished.end(), p) != unfinished.end()) continue;
      RunRow row;
      row.point = p;
      row.seed = scenario.seed;
      row.outcome = Outcome::kOk;
      const double n = std::stod(scenario.grid[p].column_values[std::distance(
          scenario.param_columns.begin(),
          std::find(scenario.param_columns.begin(), scenario.param_columns.end(), "n"))]);
      row.metrics["seconds"] = n * n * 1e-9;
      table.rows.push_back(row);
    }
  }
  std::optional<Claim> claim(const std::string& name) const {
    const std::vector<Claim> claims = dispatcher_claims(table);
    auto found = std::find_if(claims.begin(), claims.end(), [&](const Claim& c) { return c.name == name; });
    return found == claims.end() ? std::nullopt : std::optional<Claim>(*found);
  }
};

const std::string kScanRoundRobin = "exponent b of scan on round_robin";

TEST(DispatcherClaims, AQuadraticLineIsClaimedAndHolds) {
  Narrowed run("[100, 320, 1000, 3200]");
  const auto b = run.claim(kScanRoundRobin);
  ASSERT_TRUE(b.has_value());
  EXPECT_NEAR(b->value, 2.0, 1e-9);
  EXPECT_TRUE(b->low <= b->value && b->value <= b->high);
}

TEST(DispatcherClaims, AGridOfOneSizeClaimsNoExponent) {
  Narrowed run("[1000]");
  EXPECT_FALSE(run.claim(kScanRoundRobin).has_value());
}

TEST(DispatcherClaims, SizesThatDidNotFinishClaimNaNWhichFails) {
  Narrowed run("[100, 320, 1000, 3200]", {2, 3});
  const auto b = run.claim(kScanRoundRobin);
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(std::isnan(b->value));
}

}  // namespace
}  // namespace perflab::dispatcher_study
