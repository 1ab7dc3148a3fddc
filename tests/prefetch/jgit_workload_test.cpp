// The headline shape on the real workload: replay the captured JGit clone against the real JGit classpath
// (warm JAR cache, in-process channel) at the PR's prefetch depths and count RPCs and prefetched classes.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <vector>

#include "models/prefetch/direct_channel.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "tests/prefetch/real_jgit.h"

namespace perflab::prefetch {
namespace {

struct Replay {
  AgentStats agent;
  ServerStats server;
};

Replay ReplayWorkload(const testing::RealJGit& jgit, PrefetchOptions options, JarCache jar_cache) {
  PrefetchServer server(*jgit.graph, options);
  DirectChannel channel(server);
  RemoteClassLoader loader(channel, jar_cache);
  loader.LoadAll(jgit.workload.classes);
  return {loader.stats(), server.stats()};
}

const std::vector<int> kDepths = {0, 1, 2, 3, 5, 10, 50, 100, 500};

class PrefetchJGitWorkload : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<const testing::RealJGit*> loaded = testing::LoadRealJGit();
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    jgit_ = *loaded;
  }
  const testing::RealJGit* jgit_ = nullptr;
};

TEST_F(PrefetchJGitWorkload, DepthTableHasThePullRequestsShape) {
  const std::uint64_t workload_size = jgit_->workload.classes.size();
  std::map<int, Replay> by_depth;
  std::printf("[ depths   ] workload %llu classes; traversal dfs, prune threshold 1, warm JAR cache\n",
              static_cast<unsigned long long>(workload_size));
  std::printf("[ depths   ] %6s %6s %9s %7s %10s %14s\n", "depth", "rpcs", "prefetch", "hits", "srv_loaded",
              "bytes_prefetch");
  for (int depth : kDepths) {
    const Replay replay = ReplayWorkload(*jgit_, {depth, 1, Traversal::kDfs}, JarCache::kWarm);
    by_depth[depth] = replay;
    std::printf("[ depths   ] %6d %6llu %9llu %7llu %10llu %14llu\n", depth,
                static_cast<unsigned long long>(replay.agent.rpcs),
                static_cast<unsigned long long>(replay.agent.classes_prefetched),
                static_cast<unsigned long long>(replay.agent.prefetch_hits),
                static_cast<unsigned long long>(replay.server.classes_loaded),
                static_cast<unsigned long long>(replay.agent.bytes_prefetched));

    EXPECT_EQ(replay.agent.classes_not_found, 0u) << "depth " << depth;
    EXPECT_EQ(replay.agent.classes_defined, workload_size) << "depth " << depth;
    EXPECT_EQ(replay.agent.rpcs + replay.agent.prefetch_hits, workload_size) << "depth " << depth;
    EXPECT_EQ(replay.agent.classes_prefetched, replay.server.classes_sent) << "depth " << depth;
  }
  EXPECT_EQ(by_depth[0].agent.rpcs, workload_size);
  EXPECT_EQ(by_depth[0].agent.classes_prefetched, workload_size);
  EXPECT_EQ(by_depth[0].agent.bytes_prefetched, 0u);
  EXPECT_LT(by_depth[1].agent.rpcs, by_depth[0].agent.rpcs);
  EXPECT_GT(by_depth[1].agent.classes_prefetched, by_depth[0].agent.classes_prefetched);
  EXPECT_LT(by_depth[500].agent.rpcs, by_depth[1].agent.rpcs);
  EXPECT_GT(by_depth[500].agent.classes_prefetched, by_depth[1].agent.classes_prefetched);
}

TEST_F(PrefetchJGitWorkload, TraversalsAndColdCache) {
  std::printf("[ variants ] %-28s %6s %9s %7s %8s %5s\n", "configuration", "rpcs", "prefetch", "hits",
              "extra", "jars");
  auto report = [](const char* name, const Replay& replay) {
    std::printf("[ variants ] %-28s %6llu %9llu %7llu %8llu %5llu\n", name,
                static_cast<unsigned long long>(replay.agent.rpcs),
                static_cast<unsigned long long>(replay.agent.classes_prefetched),
                static_cast<unsigned long long>(replay.agent.prefetch_hits),
                static_cast<unsigned long long>(replay.agent.extra_fetches),
                static_cast<unsigned long long>(replay.agent.jar_downloads));
  };
  const Replay dfs10 = ReplayWorkload(*jgit_, {10, 1, Traversal::kDfs}, JarCache::kWarm);
  const Replay bfs10 = ReplayWorkload(*jgit_, {10, 1, Traversal::kBfs}, JarCache::kWarm);
  const Replay jar = ReplayWorkload(*jgit_, {1, 1, Traversal::kJar}, JarCache::kWarm);
  const Replay cold = ReplayWorkload(*jgit_, {1, 1, Traversal::kDfs}, JarCache::kCold);
  report("dfs depth 10", dfs10);
  report("bfs depth 10", bfs10);
  report("jar", jar);
  report("dfs depth 1, cold JAR cache", cold);

  // Whole-JAR replies: one RPC per JAR the workload uses.
  EXPECT_EQ(jar.agent.rpcs, jgit_->workload.jars_used.size());
  // The direct channel's downloads finish at once: a cold cache costs downloads, not extra RPCs.
  EXPECT_EQ(cold.agent.extra_fetches, 0u);
  EXPECT_EQ(cold.agent.rpcs, ReplayWorkload(*jgit_, {1, 1, Traversal::kDfs}, JarCache::kWarm).agent.rpcs);
  EXPECT_GE(cold.agent.jar_downloads, jgit_->workload.jars_used.size());
  for (const Replay* replay : {&dfs10, &bfs10, &jar, &cold}) {
    EXPECT_EQ(replay->agent.classes_defined, jgit_->workload.classes.size());
  }
}

}  // namespace
}  // namespace perflab::prefetch
