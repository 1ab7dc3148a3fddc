// The agent's load loop: counts on a tiny graph, warm and cold JAR caches, and a JAR that stays downloading.
#include "models/prefetch/remote_class_loader.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "models/prefetch/direct_channel.h"
#include "models/prefetch/prefetch_server.h"

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

// JAR 0: A (refers to B, C, X), B, C; JAR 1: X, Y. Class file sizes differ so byte sums are checkable.
Result<DependencyGraph> TinyGraph() {
  Result<DependencyGraph> graph = DependencyGraph::FromNodes({
      {"A", 0, 1000, ScanOutcome::kScanned, "", {"A", "B", "C", "X", "java.lang.Object"}},
      {"B", 0, 200, ScanOutcome::kScanned, "", {"B"}},
      {"C", 0, 30, ScanOutcome::kScanned, "", {"C"}},
      {"X", 1, 4, ScanOutcome::kScanned, "", {"X", "Y"}},
      {"Y", 1, 5, ScanOutcome::kScanned, "", {"Y"}},
  });
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  return graph;
}

TEST(PrefetchRemoteClassLoader, WarmCacheCountsRpcsHitsAndPrefetchedBytes) {
  const Result<DependencyGraph> graph = TinyGraph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  DirectChannel channel(server);
  RemoteClassLoader loader(channel, JarCache::kWarm);
  loader.LoadAll({"A", "B", "A", "X", "Y", "java.lang.Missing"});

  const AgentStats& stats = loader.stats();
  EXPECT_EQ(stats.fetch3_calls, 3u);  // A, Y, java.lang.Missing
  EXPECT_EQ(stats.rpcs, 3u);
  EXPECT_EQ(stats.extra_fetches, 0u);
  EXPECT_EQ(stats.classes_prefetched, 4u + 1u + 0u);  // [A B C X], [Y], []
  EXPECT_EQ(stats.prefetch_hits, 2u);                 // B, X
  EXPECT_EQ(stats.bytes_prefetched, 200u + 30u + 4u);
  EXPECT_EQ(stats.classes_defined, 4u);  // A B X Y
  EXPECT_EQ(stats.classes_not_found, 1u);
  EXPECT_EQ(stats.jar_downloads, 0u);
  EXPECT_TRUE(channel.downloaded_jars().empty());
}

TEST(PrefetchRemoteClassLoader, DepthZeroIsOneRpcPerClass) {
  const Result<DependencyGraph> graph = TinyGraph();
  PrefetchServer server(*graph, {0, 1, Traversal::kDfs});
  DirectChannel channel(server);
  RemoteClassLoader loader(channel, JarCache::kWarm);
  loader.LoadAll({"A", "B", "C", "X", "Y"});
  EXPECT_EQ(loader.stats().rpcs, 5u);
  EXPECT_EQ(loader.stats().classes_prefetched, 5u);
  EXPECT_EQ(loader.stats().prefetch_hits, 0u);
  EXPECT_EQ(loader.stats().bytes_prefetched, 0u);
}

// A channel to a real server whose JAR downloads are under the test's control: a download started without
// waiting completes at once, except for the JARs in `slow_jars`, which finish only when someone waits.
class ScriptedChannel : public ClassLoadingChannel {
 public:
  ScriptedChannel(PrefetchServer& server, std::set<int> slow_jars) : server_(server), slow_jars_(slow_jars) {}

  std::vector<SentClass> fetch3(const std::string& name) override {
    calls.push_back("fetch3 " + name);
    return server_.fetch3(name);
  }
  std::optional<SentClass> fetch(const std::string& name) override {
    calls.push_back("fetch " + name);
    return server_.fetch(name);
  }
  void download_jar(int jar, bool wait) override {
    calls.push_back("download_jar " + std::to_string(jar) + (wait ? " wait" : " async"));
    if (wait || slow_jars_.count(jar) == 0) ready_.insert(jar);
  }
  bool jar_ready(int jar) override { return ready_.count(jar) > 0; }

  std::vector<std::string> calls;

 private:
  PrefetchServer& server_;
  std::set<int> slow_jars_;
  std::set<int> ready_;
};

TEST(PrefetchRemoteClassLoader, ColdCacheDownloadsEachJarOnceAndPaysForHitsStillDownloading) {
  const Result<DependencyGraph> graph = TinyGraph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{1});
  RemoteClassLoader loader(channel, JarCache::kCold);
  loader.LoadAll({"A", "B", "X", "Y"});

  EXPECT_EQ(channel.calls, (Names{
                               "fetch3 A",
                               "download_jar 0 async",  // hint B's JAR (A's own, started before A waits)
                               "download_jar 1 async",  // hint X's JAR: stays downloading
                               "fetch X",               // a hit whose JAR is not there yet
                               "fetch3 Y",              // Y was never prefetched
                               "download_jar 1 wait",   // the requested class waits for its JAR
                           }));
  const AgentStats& stats = loader.stats();
  EXPECT_EQ(stats.jar_downloads, 2u);
  EXPECT_EQ(stats.fetch3_calls, 2u);
  EXPECT_EQ(stats.extra_fetches, 1u);
  EXPECT_EQ(stats.rpcs, 3u);
  EXPECT_EQ(stats.prefetch_hits, 2u);  // B, X
  EXPECT_EQ(stats.classes_defined, 4u);
}

TEST(PrefetchRemoteClassLoader, ColdCacheRequestedClassWaitsForAJarNobodyStarted) {
  const Result<DependencyGraph> graph = TinyGraph();
  PrefetchServer server(*graph, {0, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{});
  RemoteClassLoader loader(channel, JarCache::kCold);
  loader.LoadAll({"Y", "X", "A"});
  EXPECT_EQ(channel.calls,
            (Names{"fetch3 Y", "download_jar 1 wait", "fetch3 X", "fetch3 A", "download_jar 0 wait"}));
  EXPECT_EQ(loader.stats().jar_downloads, 2u);
}

TEST(PrefetchRemoteClassLoader, WarmCacheNeverTouchesJars) {
  const Result<DependencyGraph> graph = TinyGraph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{0, 1});
  RemoteClassLoader loader(channel, JarCache::kWarm);
  loader.LoadAll({"A", "B", "X", "Y"});
  EXPECT_EQ(channel.calls, (Names{"fetch3 A", "fetch3 Y"}));
  EXPECT_EQ(loader.stats().rpcs, 2u);
}

}  // namespace
}  // namespace perflab::prefetch
