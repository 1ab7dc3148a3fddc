// What harness_bench runs and the goals it checks, shared by the benchmarks and the summary.
#pragma once

#include <cstdint>
#include <string>

namespace perflab::perf {

constexpr int64_t kExchanges = 50000;  // per ping-pong run: 100,000 simulated messages, set-up negligible
constexpr int64_t kGridPoints = 200;   // 1-request points per run_scenario call
constexpr double kRatioGoal = 0.5;     // harness msgs/s ÷ raw s4u msgs/s
constexpr double kPointGoalMs = 5.0;   // median per-point overhead at jobs 1

// Benchmark names as the reporter sees them: function name and "/"-joined "name:value" arguments.
inline std::string harness_benchmark() {
  return "BM_HarnessPingpong/exchanges:" + std::to_string(kExchanges);
}
inline std::string raw_benchmark() {
  return "BM_RawPingpong/exchanges:" + std::to_string(kExchanges);
}
inline std::string point_benchmark(int jobs) {
  return "BM_PointOverhead/points:" + std::to_string(kGridPoints) + "/jobs:" + std::to_string(jobs);
}

}  // namespace perflab::perf
