// Google Benchmark timings of the dispatcher micro workloads (models/dispatcher/workloads.h), per
// strategy: the PR's benchmark (enqueue_burst) at the PR's sizes, and the adversarial workloads at
// n = 50,000 (round robin also at 5,000) under maxRequests 64 / maxRequestsPerHost 5. Each run reports the
// ops counted under the lock. Runs that take seconds (the quadratic cases) get one iteration per repetition.
// The floor/ runs time what any strategy pays (creating calls, the mutex, the executor), to be read side
// by side with the strategies in the same run: this shared VM's speed changes from minute to minute.
// Build: cmake --build BUILD --target dispatcher_bench; run: BUILD/tests/dispatcher/dispatcher_bench
// (filter with --benchmark_filter=..., e.g. 'indexed' or '-scan' style regexes).
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "models/dispatcher/recording_executor.h"
#include "models/dispatcher/workloads.h"
#include "sim/engines/process_memory.h"

namespace perflab::dispatcher {
namespace {

// Cases expected to take seconds per run (the quadratic ones): one iteration per repetition.
bool is_slow(Workload workload, Strategy strategy, int n) {
  if (n < 5000) {
    return false;
  }
  switch (workload) {
    case Workload::kEnqueueBurst:
      return strategy == Strategy::kScan;
    case Workload::kOneHostBacklog:
    case Workload::kRoundRobin:  // 10 hosts x 5 < 64: every promotion walks the whole backlog
      return strategy != Strategy::kIndexed;
    case Workload::kDistinctHosts:
      return strategy == Strategy::kCounter;
  }
  return false;
}

void run(benchmark::State& state, Workload workload, Strategy strategy, int n) {
  WorkloadResult last;
  for (auto _ : state) {
    state.PauseTiming();  // like the PR's benchmark, time the enqueue (and finish) loop only
    Result<std::unique_ptr<WorkloadRun>> prepared = WorkloadRun::Create(workload, strategy, n, 64, 5);
    if (!prepared.ok()) {
      state.SkipWithError(prepared.status().message().c_str());
      return;
    }
    std::unique_ptr<WorkloadRun> run = std::move(prepared).value();
    state.ResumeTiming();
    last = run->run();
    benchmark::DoNotOptimize(last);
    state.PauseTiming();
    run.reset();
    state.ResumeTiming();
  }
  state.counters["ops"] = static_cast<double>(last.ops_under_lock);
  state.counters["sections"] = static_cast<double>(last.locked_sections);
  state.counters["ns_per_op"] =
      benchmark::Counter(static_cast<double>(last.ops_under_lock),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The cost every strategy pays whatever its bookkeeping: create n calls and hand each to a
// RecordingExecutor, taking an uncontended mutex as many times as the workload's locked sections
// (2 per call to enqueue, 2 more to finish). Subtract it to see the dispatcher's own work.
void floor_cost(benchmark::State& state, int n, int sections_per_call) {
  for (auto _ : state) {
    auto executor = std::make_unique<RecordingExecutor>();
    std::mutex mutex;
    for (int i = 0; i < n; ++i) {
      CallPtr call = Call::Create("a");
      for (int s = 0; s < sections_per_call; ++s) {
        std::lock_guard<std::mutex> lock(mutex);
      }
      std::vector<CallPtr> promoted{call};
      for (const CallPtr& next : promoted) {
        benchmark::DoNotOptimize(executor->execute(next));
      }
    }
    state.PauseTiming();  // freeing the calls is not timed in run() either
    executor.reset();
    state.ResumeTiming();
  }
}

// The floor of a backlog: all n calls are created and queued first (2 locked sections each), and only
// then handed one by one to the executor and finished (2 more). Unlike floor_cost, a call has gone cold in
// memory by the time it runs, as it must in any dispatcher that holds a backlog.
void backlog_floor_cost(benchmark::State& state, int n) {
  for (auto _ : state) {
    state.PauseTiming();
    auto executor = std::make_unique<RecordingExecutor>();
    std::mutex mutex;
    std::vector<CallPtr> queued;
    std::vector<CallPtr> finished;
    finished.reserve(static_cast<size_t>(n));
    state.ResumeTiming();
    for (int i = 0; i < n; ++i) {
      CallPtr call = Call::Create("a");
      { std::lock_guard<std::mutex> lock(mutex); }
      std::lock_guard<std::mutex> lock(mutex);
      queued.push_back(std::move(call));
    }
    for (CallPtr& call : queued) {
      { std::lock_guard<std::mutex> lock(mutex); }
      benchmark::DoNotOptimize(executor->execute(call));
      std::lock_guard<std::mutex> lock(mutex);
      finished.push_back(std::move(call));
    }
    state.PauseTiming();  // freeing the calls is not timed in run() either
    executor.reset();
    queued.clear();
    finished.clear();
    state.ResumeTiming();
  }
}

void register_one(Workload workload, Strategy strategy, int n) {
  const std::string name = std::string(kWorkloadNames.name(workload)) + "/" +
                           std::string(kStrategyNames.name(strategy)) + "/" + std::to_string(n);
  auto* bench = benchmark::RegisterBenchmark(name.c_str(), run, workload, strategy, n);
  bench->Unit(benchmark::kMillisecond)->UseRealTime();
  if (is_slow(workload, strategy, n)) {
    bench->Iterations(1)->Repetitions(n >= 50'000 ? 1 : 3);
  } else {
    bench->Repetitions(5)->ReportAggregatesOnly(true);
  }
}

void register_all() {
  benchmark::RegisterBenchmark("floor/enqueue/64000", floor_cost, 64'000, 2)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Repetitions(5)
      ->ReportAggregatesOnly(true);
  benchmark::RegisterBenchmark("floor/enqueue_and_finish/50000", floor_cost, 50'000, 4)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Repetitions(5)
      ->ReportAggregatesOnly(true);
  benchmark::RegisterBenchmark("floor/backlog/50000", backlog_floor_cost, 50'000)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Repetitions(5)
      ->ReportAggregatesOnly(true);
  for (Strategy strategy : kStrategyNames.values()) {
    for (int n : {64, 640, 6400, 64'000}) {
      register_one(Workload::kEnqueueBurst, strategy, n);
    }
  }
  for (Workload workload : {Workload::kOneHostBacklog, Workload::kDistinctHosts}) {
    for (Strategy strategy : kStrategyNames.values()) {
      register_one(workload, strategy, 50'000);
    }
  }
  // Round robin: scan at 50,000 would take about ten minutes a run, so it is measured at 5,000.
  for (Strategy strategy : kStrategyNames.values()) {
    register_one(Workload::kRoundRobin, strategy, 5'000);
  }
  register_one(Workload::kRoundRobin, Strategy::kCounter, 50'000);
  register_one(Workload::kRoundRobin, Strategy::kIndexed, 50'000);
}

}  // namespace
}  // namespace perflab::dispatcher

int main(int argc, char** argv) {
  perflab::keep_freed_memory_in_process();  // as the harness's micro engine does
  perflab::dispatcher::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
