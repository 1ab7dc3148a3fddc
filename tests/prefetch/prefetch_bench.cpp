// prefetch_bench: how long the real JGit classpath takes to index and scan (goal: under 200 ms for both),
// and how long replaying the workload takes. Not built by default nor run by ctest:
// `cmake --build build --target prefetch_bench`, then `build/tests/prefetch/prefetch_bench`.
#include <benchmark/benchmark.h>

#include "models/prefetch/classpath.h"
#include "models/prefetch/dependency_graph.h"
#include "models/prefetch/direct_channel.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "tests/prefetch/real_jgit.h"

namespace perflab::prefetch {
namespace {

std::vector<std::string> jar_paths_or_skip(benchmark::State& state) {
  Result<std::vector<std::string>> paths = testing::real_classpath_paths();
  if (!paths.ok()) state.SkipWithError(paths.status().message().c_str());
  return paths.ok() ? paths.value() : std::vector<std::string>{};
}

void BM_IndexClasspath(benchmark::State& state) {
  const std::vector<std::string> paths = jar_paths_or_skip(state);
  for (auto _ : state) {
    Result<Classpath> classpath = Classpath::Open(paths);
    benchmark::DoNotOptimize(classpath);
  }
}
BENCHMARK(BM_IndexClasspath)->Unit(benchmark::kMillisecond);

void BM_IndexAndBuildGraph(benchmark::State& state) {
  const std::vector<std::string> paths = jar_paths_or_skip(state);
  std::size_t classes = 0;
  for (auto _ : state) {
    Result<Classpath> classpath = Classpath::Open(paths);
    Result<DependencyGraph> graph = DependencyGraph::Build(classpath.value());
    classes = graph->class_count();
    benchmark::DoNotOptimize(graph);
  }
  state.counters["classes"] = static_cast<double>(classes);
}
BENCHMARK(BM_IndexAndBuildGraph)->Unit(benchmark::kMillisecond);

void BM_ReplayWorkload(benchmark::State& state) {
  Result<const testing::RealJGit*> jgit = testing::load_real_j_git();
  if (!jgit.ok()) {
    state.SkipWithError(jgit.status().message().c_str());
    return;
  }
  const PrefetchOptions options{static_cast<int>(state.range(0)), 1, Traversal::kDfs};
  std::uint64_t rpcs = 0;
  for (auto _ : state) {
    PrefetchServer server(*(*jgit)->graph, options);
    DirectChannel channel(server);
    RemoteClassLoader loader(channel, JarCache::kWarm);
    loader.load_all((*jgit)->workload.classes);
    rpcs = loader.stats().rpcs;
  }
  state.counters["rpcs"] = static_cast<double>(rpcs);
}
BENCHMARK(BM_ReplayWorkload)->Arg(0)->Arg(1)->Arg(10)->Arg(500)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace perflab::prefetch

BENCHMARK_MAIN();
