// The micro-engine workloads: name parsing, argument errors, that every call runs, and how the work under
// the lock grows with n for each strategy (counted ops, not wall time, so the checks are deterministic).
#include <string>

#include <gtest/gtest.h>

#include "models/dispatcher/workloads.h"

namespace perflab::dispatcher {
namespace {

TEST(DispatcherNames, StrategiesRoundTrip) {
  for (Strategy strategy : kStrategyNames.values()) {
    Result<Strategy> parsed = kStrategyNames.parse(kStrategyNames.name(strategy));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, strategy);
  }
}

TEST(DispatcherNames, UnknownStrategyListsTheValidOnes) {
  Result<Strategy> parsed = kStrategyNames.parse("fast");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(),
            "unknown dispatcher strategy \"fast\", expected one of: scan, counter, indexed");
}

TEST(DispatcherNames, WorkloadsRoundTrip) {
  for (Workload workload : kWorkloadNames.values()) {
    Result<Workload> parsed = kWorkloadNames.parse(kWorkloadNames.name(workload));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, workload);
  }
}

TEST(DispatcherNames, UnknownWorkloadListsTheValidOnes) {
  Result<Workload> parsed = kWorkloadNames.parse("burst");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(),
            "unknown dispatcher workload \"burst\", expected one of: enqueue_burst, one_host_backlog, "
            "distinct_hosts, round_robin");
}

TEST(DispatcherWorkloads, BadArgumentsAreErrors) {
  EXPECT_FALSE(run_workload(Workload::kRoundRobin, Strategy::kIndexed, 0, 64, 5).ok());
  Result<WorkloadResult> no_max = run_workload(Workload::kRoundRobin, Strategy::kIndexed, 10, 0, 5);
  ASSERT_FALSE(no_max.ok());
  EXPECT_NE(no_max.status().message().find("max_requests must be at least 1"), std::string::npos);
  EXPECT_FALSE(run_workload(Workload::kDistinctHosts, Strategy::kScan, 10, 64, -1).ok());
}

class DispatcherWorkloadsTest : public ::testing::TestWithParam<std::tuple<Workload, Strategy>> {};

TEST_P(DispatcherWorkloadsTest, EveryCallRuns) {
  const auto [workload, strategy] = GetParam();
  Result<WorkloadResult> result = run_workload(workload, strategy, 777, 64, 5);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->calls, 777u);
  EXPECT_EQ(result->executed, 777u);
  EXPECT_GT(result->ops_under_lock, 0u);
  // enqueue: 2 sections per call; finishing: 2 more; plus 4 for setting the two limits.
  const uint64_t sections_per_call = workload == Workload::kEnqueueBurst ? 2 : 4;
  EXPECT_EQ(result->locked_sections, 4 + sections_per_call * 777);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, DispatcherWorkloadsTest,
                         ::testing::Combine(::testing::ValuesIn(kWorkloadNames.values()),
                                            ::testing::ValuesIn(kStrategyNames.values())),
                         [](const auto& info) {
                           return std::string(kWorkloadNames.name(std::get<0>(info.param))) + "_" +
                                  std::string(kStrategyNames.name(std::get<1>(info.param)));
                         });

uint64_t ops(Workload workload, Strategy strategy, int n) {
  Result<WorkloadResult> result = run_workload(workload, strategy, n, 64, 5);
  EXPECT_TRUE(result.ok());
  return result.ok() ? result->ops_under_lock : 0;
}

// Doubling n: ~2x for O(n) or O(n log n) work, ~4x for quadratic work.
double growth(Workload workload, Strategy strategy, int n) {
  return static_cast<double>(ops(workload, strategy, 2 * n)) /
         static_cast<double>(ops(workload, strategy, n));
}

TEST(DispatcherScaling, ScanIsQuadraticOnThePrBenchmarkAndTheFixIsNot) {
  EXPECT_GT(growth(Workload::kEnqueueBurst, Strategy::kScan, 2000), 3.5);
  EXPECT_LT(growth(Workload::kEnqueueBurst, Strategy::kCounter, 2000), 2.2);
  EXPECT_LT(growth(Workload::kEnqueueBurst, Strategy::kIndexed, 2000), 2.2);
  EXPECT_GT(ops(Workload::kEnqueueBurst, Strategy::kScan, 4000),
            100 * ops(Workload::kEnqueueBurst, Strategy::kCounter, 4000));
}

TEST(DispatcherScaling, CounterIsQuadraticOnAOneHostBacklog) {
  EXPECT_GT(growth(Workload::kOneHostBacklog, Strategy::kScan, 2000), 3.5);
  EXPECT_GT(growth(Workload::kOneHostBacklog, Strategy::kCounter, 2000), 3.5);
  EXPECT_LT(growth(Workload::kOneHostBacklog, Strategy::kIndexed, 2000), 2.2);
}

TEST(DispatcherScaling, CounterIsQuadraticWithDistinctHosts) {
  EXPECT_LT(growth(Workload::kDistinctHosts, Strategy::kScan, 2000), 2.2);
  EXPECT_GT(growth(Workload::kDistinctHosts, Strategy::kCounter, 2000), 3.5);
  EXPECT_LT(growth(Workload::kDistinctHosts, Strategy::kIndexed, 2000), 2.3);
}

TEST(DispatcherScaling, IndexedStaysNearLinearOnEveryWorkload) {
  for (Workload workload : kWorkloadNames.values()) {
    EXPECT_LT(growth(workload, Strategy::kIndexed, 4000), 2.3) << kWorkloadNames.name(workload);
  }
}

}  // namespace
}  // namespace perflab::dispatcher
