// The harness performance goals as Google Benchmarks: simulated messages per wall second of the real
// `pingpong` study run through the harness (load_scenario + run_one) against a raw s4u ping-pong of the same
// shape, and the per-point cost of the forking runner on 1-request points. Every simulated run happens in a
// forked child (one SimGrid engine per process); the child's own wall time is the iteration time.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "tests/perf/bench_config.h"
#include "tests/perf/child_run.h"
#include "tests/perf/raw_pingpong.h"
#include "tests/perf/temp_scenario.h"

namespace perflab::perf {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A pingpong scenario over the network of PingpongShape's defaults (20 ms, 100 MB/s); `body` gives
// [params] and [sweep].
std::string pingpong_toml(const std::string& body) {
  return "[scenario]\nname = \"perf\"\nstudy = \"pingpong\"\nengine = \"sim\"\nseeds = 1\nseed = 1\n"
         "[network]\nlatency = \"constant(20ms)\"\nbandwidth = \"100MBps\"\n" +
         body;
}

// One iteration = one child; reports its wall time, messages/s, simulated time and fork-to-reap time.
template <typename Work>
void time_in_children(benchmark::State& state, int64_t messages, const Work& work) {
  double seconds = 0;
  double fork_to_reap = 0;
  double simulated = 0;
  for (auto _ : state) {
    ChildOutcome outcome = run_in_child(work);
    if (!outcome.error.empty()) {
      state.SkipWithError(outcome.error.c_str());
      return;
    }
    state.SetIterationTime(outcome.timing.seconds);
    seconds += outcome.timing.seconds;
    fork_to_reap += outcome.fork_to_reap_s;
    simulated = outcome.timing.check;
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * messages);
  state.counters["msgs_per_s"] = static_cast<double>(messages) * iterations / seconds;
  state.counters["fork_to_reap_s"] = fork_to_reap / iterations;
  state.counters["sim_s"] = simulated;
}

void BM_HarnessPingpong(benchmark::State& state) {
  const int64_t exchanges = state.range(0);
  TempScenario file(pingpong_toml("[params]\nrequests = " + std::to_string(exchanges) +
                                  "\nrequest_size = \"1KiB\"\nreply_size = \"1KiB\"\n"));
  auto scenario = load_scenario(file.file(), {});
  if (!scenario.ok()) {
    state.SkipWithError(scenario.status().message().c_str());
    return;
  }
  time_in_children(state, 2 * exchanges, [&] {
    auto start = std::chrono::steady_clock::now();
    RunRow row = run_one(*scenario, 0, 0, PointInputs{}, RunOptions{});
    double seconds = seconds_since(start);
    if (!row.error.empty() || row.metrics["messages"] != static_cast<double>(2 * exchanges)) {
      std::fprintf(stderr, "harness pingpong failed: %s\n", row.error.c_str());
      return ChildTiming{-1, 0};
    }
    return ChildTiming{seconds, row.metrics["duration_s"]};
  });
}

void BM_RawPingpong(benchmark::State& state) {
  PingpongShape shape;
  shape.exchanges = state.range(0);
  time_in_children(state, 2 * shape.exchanges, [&] {
    auto start = std::chrono::steady_clock::now();
    double simulated = run_raw_pingpong(shape);
    return ChildTiming{seconds_since(start), simulated};
  });
}

// A grid of `points` 1-request pingpong points (request_size 1 B … points B) through run_scenario.
void BM_PointOverhead(benchmark::State& state) {
  const int64_t points = state.range(0);
  std::string sizes;
  for (int64_t i = 1; i <= points; ++i) {
    sizes += (i > 1 ? ", \"" : "\"") + std::to_string(i) + "B\"";
  }
  TempScenario file(pingpong_toml("[params]\nrequests = 1\n[sweep]\nrequest_size = [" + sizes + "]\n"));
  auto scenario = load_scenario(file.file(), {});
  if (!scenario.ok() || static_cast<int64_t>(scenario->grid.size()) != points) {
    state.SkipWithError(scenario.ok() ? "unexpected grid size" : scenario.status().message().c_str());
    return;
  }
  RunOptions options;
  options.jobs = static_cast<int>(state.range(1));
  double seconds = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    auto table = run_scenario(*scenario, options);
    double elapsed = seconds_since(start);
    if (!table.ok()) {
      state.SkipWithError(table.status().message().c_str());
      return;
    }
    for (const auto& row : table->rows) {
      if (!row.error.empty()) {
        state.SkipWithError(row.error.c_str());
        return;
      }
    }
    state.SetIterationTime(elapsed);
    seconds += elapsed;
  }
  const auto runs = static_cast<double>(state.iterations() * points);
  state.SetItemsProcessed(state.iterations() * points);
  state.counters["ms_per_point"] = 1e3 * seconds / runs;
}

BENCHMARK(BM_HarnessPingpong)
    ->ArgName("exchanges")
    ->Arg(kExchanges)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawPingpong)
    ->ArgName("exchanges")
    ->Arg(kExchanges)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PointOverhead)
    ->ArgNames({"points", "jobs"})
    ->Args({kGridPoints, 1})
    ->Args({kGridPoints, 2})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace perflab::perf
