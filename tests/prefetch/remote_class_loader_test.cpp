// The agent's load loop: counts on a tiny graph, warm and cold JAR caches as upstream's JarCacheSupport, and
// a JAR that stays downloading.
#include "models/prefetch/remote_class_loader.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/prefetch/direct_channel.h"
#include "models/prefetch/prefetch_server.h"

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

// JAR 0: A (refers to B, C, X), B, C; JAR 1: X, Y. Class file sizes differ so byte sums are checkable.
Result<DependencyGraph> tiny_graph() {
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
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  DirectChannel channel(server);
  RemoteClassLoader loader(channel, JarCache::kWarm);
  loader.load_all({"A", "B", "A", "X", "Y", "java.lang.Missing"});

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
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {0, 1, Traversal::kDfs});
  DirectChannel channel(server);
  RemoteClassLoader loader(channel, JarCache::kWarm);
  loader.load_all({"A", "B", "C", "X", "Y"});
  EXPECT_EQ(loader.stats().rpcs, 5u);
  EXPECT_EQ(loader.stats().classes_prefetched, 5u);
  EXPECT_EQ(loader.stats().prefetch_hits, 0u);
  EXPECT_EQ(loader.stats().bytes_prefetched, 0u);
}

// A channel to a real server whose JAR downloads are under the test's control: a download finishes as soon as
// it starts (and the controller hears of it, as after JarLoader.writeJarTo), except for the JARs in
// `slow_jars`, which stay downloading.
class ScriptedChannel : public ClassLoadingChannel {
 public:
  ScriptedChannel(PrefetchServer& server, std::set<int> slow_jars)
      : server_(server), slow_jars_(std::move(slow_jars)) {}

  std::vector<SentClass> fetch3(const std::string& name) override {
    std::vector<SentClass> reply = server_.fetch3(name);
    calls.push_back("fetch3 " + name +
                    (reply.empty()                ? ""
                     : reply.front().image_inline ? " (bytes)"
                                                  : " (JAR reference)"));
    return reply;
  }
  std::optional<SentClass> fetch(const std::string& name) override {
    calls.push_back("fetch " + name);
    return server_.fetch(name);
  }
  void start_jar_download(int jar) override {
    calls.push_back("download " + std::to_string(jar));
    if (slow_jars_.count(jar) > 0) return;
    ready_.insert(jar);
    server_.notify_jar_present(jar);
  }
  bool jar_ready(int jar) override { return ready_.count(jar) > 0; }
  void notify_jar_present(int jar) override {
    calls.push_back("present " + std::to_string(jar));
    server_.notify_jar_present(jar);
  }

  std::vector<std::string> calls;

 private:
  PrefetchServer& server_;
  std::set<int> slow_jars_;
  std::set<int> ready_;
};

TEST(PrefetchRemoteClassLoader, ColdCacheDefinesTheRequestedClassAtOnceAndPaysForHitsStillDownloading) {
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{1});
  RemoteClassLoader loader(channel, JarCache::kCold);
  loader.load_all({"A", "B", "X", "Y"});

  EXPECT_EQ(channel.calls, (Names{
                               "fetch3 A (bytes)",  // A's bytes inline: defined without waiting for JAR 0
                               "download 0",        // ... whose download it starts (ResourceImageBoth)
                               "download 1",        // hit X: its JAR is resolved only now, and is slow
                               "fetch X",           // so X's bytes cost one more RPC
                               "fetch3 Y (bytes)",  // JAR 1 not there yet: Y's bytes come inline
                           }));
  const AgentStats& stats = loader.stats();
  EXPECT_EQ(stats.jar_downloads, 2u);
  EXPECT_EQ(stats.fetch3_calls, 2u);
  EXPECT_EQ(stats.extra_fetches, 1u);
  EXPECT_EQ(stats.rpcs, 3u);
  EXPECT_EQ(stats.prefetch_hits, 2u);  // B, X
  EXPECT_EQ(stats.classes_defined, 4u);
}

TEST(PrefetchRemoteClassLoader, AReferenceWhoseJarIsStillArrivingCostsAFetchWithoutAnyHit) {
  // Depth 0, so no hints. The controller has written JAR 1 and so sends X as a reference only
  // (RemoteClassLoader.java:1114-1123) while the agent's download is not done: the agent fetches X's bytes
  // (:317-328). An extra fetch is not only a prefetch hit's.
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {0, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{1});
  RemoteClassLoader loader(channel, JarCache::kCold);
  loader.load("Y");
  server.notify_jar_present(1);  // JarLoaderImpl.writeJarTo has written it; it is still on its way
  loader.load("X");
  EXPECT_EQ(channel.calls, (Names{"fetch3 Y (bytes)", "download 1", "fetch3 X (JAR reference)", "fetch X"}));
  EXPECT_EQ(loader.stats().prefetch_hits, 0u);
  EXPECT_EQ(loader.stats().extra_fetches, 1u);
}

TEST(PrefetchRemoteClassLoader, ColdCacheDownloadsOnlyTheJarsOfClassesItDefines) {
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{});
  RemoteClassLoader loader(channel, JarCache::kCold);
  loader.load_all({"A", "B"});  // X (JAR 1) was prefetched but never loaded
  EXPECT_EQ(channel.calls, (Names{"fetch3 A (bytes)", "download 0"}));
  EXPECT_EQ(loader.stats().jar_downloads, 1u);
  EXPECT_EQ(loader.stats().rpcs, 1u);
}

TEST(PrefetchRemoteClassLoader, OnceTheJarIsThereTheControllerSendsReferencesOnly) {
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {0, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{});
  RemoteClassLoader loader(channel, JarCache::kCold);
  loader.load_all({"Y", "X", "A"});
  EXPECT_EQ(channel.calls, (Names{"fetch3 Y (bytes)", "download 1", "fetch3 X (JAR reference)",
                                  "fetch3 A (bytes)", "download 0"}));
  EXPECT_EQ(loader.stats().jar_downloads, 2u);
  EXPECT_EQ(loader.stats().extra_fetches, 0u);
}

TEST(PrefetchRemoteClassLoader, WarmCacheNeverDownloadsAndReportsEachJarOnce) {
  const Result<DependencyGraph> graph = tiny_graph();
  PrefetchServer server(*graph, {1, 1, Traversal::kDfs});
  ScriptedChannel channel(server, /*slow_jars=*/{0, 1});
  RemoteClassLoader loader(channel, JarCache::kWarm);
  loader.load_all({"A", "B", "X", "Y"});
  EXPECT_EQ(channel.calls, (Names{"fetch3 A (bytes)", "present 0", "present 1", "fetch3 Y (JAR reference)"}));
  EXPECT_EQ(loader.stats().rpcs, 2u);
  EXPECT_EQ(loader.stats().jar_downloads, 0u);
}

TEST(PrefetchRemoteClassLoader, JarCacheNamesRoundTrip) {
  EXPECT_EQ(kJarCacheNames.names(), (std::vector<std::string>{"cold", "warm"}));
  for (JarCache cache : kJarCacheNames.values())
    EXPECT_EQ(*kJarCacheNames.parse(kJarCacheNames.name(cache)), cache);
  auto unknown = kJarCacheNames.parse("lukewarm");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "unknown JAR cache \"lukewarm\", expected one of: cold, warm");
}

}  // namespace
}  // namespace perflab::prefetch
