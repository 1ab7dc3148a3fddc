// Google Benchmark timings of the dispatcher micro workloads (models/dispatcher/workloads.h), per
// strategy: the PR's benchmark (enqueue_burst) at the PR's sizes, and the three adversarial workloads at
// n = 50,000 under maxRequests 64 / maxRequestsPerHost 5. Each run reports the ops counted under the lock.
// Runs that take seconds (the quadratic cases) get one iteration per repetition.
// Build: cmake --build BUILD --target dispatcher_bench; run: BUILD/tests/dispatcher/dispatcher_bench
// (filter with --benchmark_filter=..., e.g. 'indexed' or '-scan' style regexes).
#include <string>

#include <benchmark/benchmark.h>

#include "models/dispatcher/workloads.h"

namespace perflab::dispatcher {
namespace {

// Cases expected to take seconds per run (the quadratic ones).
bool is_slow(Workload workload, Strategy strategy, int n) {
  if (n < 6400) return false;
  switch (workload) {
    case Workload::kEnqueueBurst:
      return strategy == Strategy::kScan;
    case Workload::kOneHostBacklog:
      return strategy != Strategy::kIndexed;
    case Workload::kDistinctHosts:
      return strategy == Strategy::kCounter;
    case Workload::kRoundRobin:
      return false;
  }
  return false;
}

void run(benchmark::State& state, Workload workload, Strategy strategy, int n) {
  WorkloadResult last;
  for (auto _ : state) {
    Result<WorkloadResult> result = run_workload(workload, strategy, n, 64, 5);
    if (!result.ok()) {
      state.SkipWithError(result.status().message().c_str());
      return;
    }
    last = *result;
    benchmark::DoNotOptimize(last);
  }
  state.counters["ops"] = static_cast<double>(last.ops_under_lock);
  state.counters["sections"] = static_cast<double>(last.locked_sections);
  state.counters["ns_per_op"] =
      benchmark::Counter(static_cast<double>(last.ops_under_lock),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_one(Workload workload, Strategy strategy, int n) {
  const std::string name = std::string(workload_name(workload)) + "/" + std::string(strategy_name(strategy)) +
                           "/" + std::to_string(n);
  auto* bench = benchmark::RegisterBenchmark(name.c_str(), run, workload, strategy, n);
  bench->Unit(benchmark::kMillisecond)->UseRealTime();
  if (is_slow(workload, strategy, n)) {
    bench->Iterations(1)->Repetitions(n >= 50'000 ? 1 : 3);
  } else {
    bench->Repetitions(5)->ReportAggregatesOnly(true);
  }
}

void register_all() {
  for (Strategy strategy : kAllStrategies) {
    for (int n : {64, 640, 6400, 64'000}) register_one(Workload::kEnqueueBurst, strategy, n);
  }
  for (Workload workload : {Workload::kOneHostBacklog, Workload::kDistinctHosts, Workload::kRoundRobin}) {
    for (Strategy strategy : kAllStrategies) register_one(workload, strategy, 50'000);
  }
}

}  // namespace
}  // namespace perflab::dispatcher

int main(int argc, char** argv) {
  perflab::dispatcher::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
