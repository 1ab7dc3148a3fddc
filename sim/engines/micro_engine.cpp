// The micro engine; see micro_engine.h.
#include "sim/engines/micro_engine.h"

#include <algorithm>
#include <chrono>

#include <benchmark/benchmark.h>

#include "sim/engines/process_memory.h"

namespace perflab {
namespace {

// Collects the wall time of each repetition; prints nothing (the harness makes its own tables).
class RepetitionCollector : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      if (run.error_occurred) error = run.error_message;
      if (run.iterations > 0)
        seconds.push_back(run.real_accumulated_time / static_cast<double>(run.iterations));
    }
  }
  std::vector<double> seconds;
  std::string error;
};

// One timed iteration; set_up and tear_down run with the clock paused.
void run_repetition(benchmark::State& state, const MicroWorkload& workload, Metrics& counters) {
  for (auto _ : state) {
    if (workload.set_up) {
      state.PauseTiming();
      Status ready = workload.set_up();
      state.ResumeTiming();
      if (!ready.ok()) {
        state.SkipWithError(ready.message().c_str());
        break;
      }
    }
    counters = workload.run();
    if (workload.measured_seconds) {
      Result<double> seconds = workload.measured_seconds();
      if (!seconds.ok()) {
        state.SkipWithError(seconds.status().message().c_str());
        break;
      }
      state.SetIterationTime(seconds.value());
    }
    if (workload.tear_down) {
      state.PauseTiming();
      workload.tear_down();
      state.ResumeTiming();
    }
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// One run outside Google Benchmark, set-up and tear-down untimed; returns its wall time.
Result<double> run_once(const MicroWorkload& workload, Metrics& counters) {
  if (workload.set_up) {
    if (Status ready = workload.set_up(); !ready.ok())
      return Status::Error("benchmark failed: " + ready.message());
  }
  const auto start = std::chrono::steady_clock::now();
  counters = workload.run();
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  Result<double> seconds = workload.measured_seconds ? workload.measured_seconds() : elapsed.count();
  if (workload.tear_down) workload.tear_down();
  if (!seconds.ok()) return Status::Error("benchmark failed: " + seconds.status().message());
  return seconds;
}

}  // namespace

Result<MicroResult> run_micro(const Study& study, const Params& params, const PointInputs& inputs,
                              int repetitions, std::optional<int> long_repetitions) {
  auto workload = study.setup_micro(params, inputs);
  if (!workload.ok()) return workload.status();
  keep_freed_memory_in_process();
  Metrics counters;
  MicroResult result;

  Result<double> warm_up = run_once(*workload, counters);
  if (!warm_up.ok()) return warm_up.status();
  if (warm_up.value() > kLongestWarmUpSeconds) {
    repetitions = long_repetitions.value_or(repetitions);
    result.repetitions.push_back(warm_up.value());
    --repetitions;
  }
  if (repetitions > 0) {
    auto* benchmark = benchmark::RegisterBenchmark(
        study.name.c_str(), [&](benchmark::State& state) { run_repetition(state, *workload, counters); });
    benchmark->Iterations(1)->Repetitions(repetitions)->ReportAggregatesOnly(false);
    if (workload->measured_seconds) {
      benchmark->UseManualTime();
    } else {
      benchmark->UseRealTime();
    }
    RepetitionCollector collector;
    benchmark::RunSpecifiedBenchmarks(&collector);
    benchmark::ClearRegisteredBenchmarks();
    if (!collector.error.empty()) return Status::Error("benchmark failed: " + collector.error);
    if (collector.seconds.empty()) return Status::Error("benchmark produced no repetitions");
    result.repetitions.insert(result.repetitions.end(), collector.seconds.begin(), collector.seconds.end());
  }
  result.metrics = workload->report(median(result.repetitions), counters);
  return result;
}

}  // namespace perflab
