// fetch3 on hand-made dependency graphs, with replies computed by hand from the PR #721 pseudo-code.
#include "models/prefetch/prefetch_server.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

ClassNode class_node(std::string name, int jar, Names dependencies) {
  return ClassNode{std::move(name), jar, 100, ScanOutcome::kScanned, "", std::move(dependencies)};
}

// Checked where it is built; tests dereference it.
Result<DependencyGraph> make_graph(std::vector<ClassNode> nodes) {
  Result<DependencyGraph> graph = DependencyGraph::FromNodes(std::move(nodes));
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  return graph;
}

Names names_of(const std::vector<SentClass>& reply) {
  Names names;
  for (const SentClass& sent : reply) names.push_back(sent.name);
  return names;
}

Names fetch3(const DependencyGraph& graph, PrefetchOptions options, const std::string& name) {
  PrefetchServer server(graph, options);
  return names_of(server.fetch3(name));
}

PrefetchOptions dfs(int depth, int prune_threshold = 1) {
  return {depth, prune_threshold, Traversal::kDfs};
}
PrefetchOptions bfs(int depth, int prune_threshold = 1) {
  return {depth, prune_threshold, Traversal::kBfs};
}

// JAR 0: A B C D, JAR 1: X Y. A refers to the JDK too.
Result<DependencyGraph> two_jars() {
  return make_graph({
      class_node("A", 0, {"A", "B", "C", "X", "java.lang.Object"}),
      class_node("B", 0, {"B", "D"}),
      class_node("C", 0, {"C", "D", "Y"}),
      class_node("D", 0, {"D"}),
      class_node("X", 1, {"X", "Y"}),
      class_node("Y", 1, {"Y"}),
  });
}

TEST(PrefetchServer, DepthZeroSendsOnlyTheRequestedClass) {
  const Result<DependencyGraph> graph = two_jars();
  EXPECT_EQ(fetch3(*graph, dfs(0), "A"), (Names{"A"}));
  EXPECT_EQ(fetch3(*graph, bfs(0), "A"), (Names{"A"}));
  EXPECT_EQ(fetch3(*graph, {0, 1, Traversal::kJar}, "A"), (Names{"A"}));
}

TEST(PrefetchServer, DepthOneSendsTheDirectDependenciesInSortedOrder) {
  // java.lang.Object is not loadable: swallowed. The same as the prefetch Remoting ships.
  EXPECT_EQ(fetch3(*two_jars(), dfs(1), "A"), (Names{"A", "B", "C", "X"}));
}

TEST(PrefetchServer, DepthTwoExpandsSameJarClassesDepthFirst) {
  // expand(A,1): B -> expand(B,2): D. C -> expand(C,2): D already marked, Y sent (level 2 = depth: no
  // further expansion). X: another JAR at level 1, not below the prune threshold 1: sent, not expanded.
  EXPECT_EQ(fetch3(*two_jars(), dfs(2), "A"), (Names{"A", "B", "D", "C", "Y", "X"}));
}

TEST(PrefetchServer, CrossJarDependenciesAreSentButNotExpandedFromThePruneThresholdOn) {
  const Result<DependencyGraph> graph = make_graph({
      class_node("A", 0, {"A", "X"}),
      class_node("X", 1, {"X", "Y"}),
      class_node("Y", 1, {"Y", "Z"}),
      class_node("Z", 1, {"Z"}),
  });
  EXPECT_EQ(fetch3(*graph, dfs(10, 1), "A"), (Names{"A", "X"}));
  // Threshold 2: X (level 1 < 2) expands; Y and Z are in X's JAR, so they keep expanding.
  EXPECT_EQ(fetch3(*graph, dfs(10, 2), "A"), (Names{"A", "X", "Y", "Z"}));
  EXPECT_EQ(fetch3(*graph, bfs(10, 1), "A"), (Names{"A", "X"}));
  EXPECT_EQ(fetch3(*graph, bfs(10, 2), "A"), (Names{"A", "X", "Y", "Z"}));
}

TEST(PrefetchServer, SameJarChainsExpandBeyondTheThresholdUntilTheDepth) {
  const Result<DependencyGraph> graph = make_graph({
      class_node("A", 0, {"B"}),
      class_node("B", 0, {"C"}),
      class_node("C", 0, {"X", "D"}),
      class_node("D", 0, {"E"}),
      class_node("E", 0, {}),
      class_node("X", 1, {"Y"}),
      class_node("Y", 1, {}),
  });
  EXPECT_EQ(fetch3(*graph, dfs(500), "A"), (Names{"A", "B", "C", "D", "E", "X"}));
  EXPECT_EQ(fetch3(*graph, dfs(3), "A"), (Names{"A", "B", "C", "D", "X"}));
}

// A refers to B and C, B refers to C, C refers to D; all in one JAR.
Result<DependencyGraph> diamond() {
  return make_graph({
      class_node("A", 0, {"B", "C"}),
      class_node("B", 0, {"C"}),
      class_node("C", 0, {"D"}),
      class_node("D", 0, {}),
  });
}

TEST(PrefetchServer, AClassFirstReachedDeepIsNotReexpandedFromAShallowerLevel) {
  // Depth 2, depth first: C is reached through B at level 2 and marked there; when A's own loop comes to C
  // at level 1 it is already marked, so D (level 2 through C) is never sent.
  EXPECT_EQ(fetch3(*diamond(), dfs(2), "A"), (Names{"A", "B", "C"}));
}

TEST(PrefetchServer, BreadthFirstExpandsEachClassFromItsShallowestLevel) {
  // Level 1: B, C. Level 2: from B nothing new, from C: D.
  EXPECT_EQ(fetch3(*diamond(), bfs(2), "A"), (Names{"A", "B", "C", "D"}));
  EXPECT_EQ(fetch3(*diamond(), bfs(1), "A"), (Names{"A", "B", "C"}));
  EXPECT_EQ(fetch3(*two_jars(), bfs(2), "A"), (Names{"A", "B", "C", "X", "D", "Y"}));
}

TEST(PrefetchServer, NothingIsSentTwiceOnAChannel) {
  const Result<DependencyGraph> graph = make_graph({
      class_node("A", 0, {"B", "java.lang.String"}),
      class_node("B", 0, {}),
      class_node("C", 0, {"B", "D", "java.lang.String"}),
      class_node("D", 0, {}),
  });
  PrefetchServer server(*graph, dfs(1));
  EXPECT_EQ(names_of(server.fetch3("A")), (Names{"A", "B"}));
  EXPECT_EQ(names_of(server.fetch3("C")), (Names{"C", "D"}));
  // The requested class is always returned, even when it was already sent.
  EXPECT_EQ(names_of(server.fetch3("B")), (Names{"B"}));
  EXPECT_EQ(server.stats().fetch3_calls, 3u);
  EXPECT_EQ(server.stats().classes_sent, 5u);
  EXPECT_EQ(server.stats().classes_loaded, 4u);
  EXPECT_EQ(server.stats().classes_scanned, 3u);
}

TEST(PrefetchServer, AClassWhoseScanFailedGetsNoPrefetch) {
  const Result<DependencyGraph> graph = make_graph({
      class_node("A", 0, {"M", "U"}),
      ClassNode{"M", 0, 100, ScanOutcome::kMalformed, "bad", {}},
      ClassNode{"U", 0, 100, ScanOutcome::kUnsupportedConstant, "tag 19", {}},
      class_node("B", 0, {}),
  });
  EXPECT_EQ(fetch3(*graph, dfs(5), "U"), (Names{"U"}));
  EXPECT_EQ(fetch3(*graph, dfs(5), "A"), (Names{"A", "M", "U"}));
}

TEST(PrefetchServer, JarTraversalSendsTheRequestedClassesWholeJarOnce) {
  const Result<DependencyGraph> graph = two_jars();
  PrefetchServer server(*graph, {1, 1, Traversal::kJar});
  EXPECT_EQ(names_of(server.fetch3("C")), (Names{"C", "A", "B", "D"}));
  EXPECT_EQ(names_of(server.fetch3("Y")), (Names{"Y", "X"}));
  EXPECT_EQ(names_of(server.fetch3("A")), (Names{"A"}));
  EXPECT_EQ(server.stats().classes_loaded, 6u);
  EXPECT_EQ(server.stats().classes_scanned, 0u);
}

TEST(PrefetchServer, RepliesCarryJarAndSize) {
  const Result<DependencyGraph> graph =
      make_graph({class_node("A", 0, {"X"}), ClassNode{"X", 3, 1234, {}, "", {}}});
  PrefetchServer server(*graph, dfs(1));
  const std::vector<SentClass> reply = server.fetch3("A");
  ASSERT_EQ(reply.size(), 2u);
  EXPECT_EQ(reply[1].name, "X");
  EXPECT_EQ(reply[1].jar, 3);
  EXPECT_EQ(reply[1].class_file_bytes, 1234u);
}

TEST(PrefetchServer, UnknownClassesGetAnEmptyReply) {
  const Result<DependencyGraph> graph = two_jars();
  PrefetchServer server(*graph, dfs(1));
  EXPECT_TRUE(server.fetch3("java.lang.String").empty());
  EXPECT_FALSE(server.fetch("nope").has_value());
  ASSERT_TRUE(server.fetch("B").has_value());
  EXPECT_EQ(server.fetch("B")->name, "B");
  EXPECT_EQ(server.stats().classes_loaded, 1u) << "fetch loads B once";
  // fetch does not mark B as prefetched: a later fetch3 of A still sends it.
  EXPECT_EQ(names_of(server.fetch3("A")), (Names{"A", "B", "C", "X"}));
}

TEST(PrefetchServer, TraversalNamesRoundTrip) {
  EXPECT_EQ(kTraversalNames.names(), (std::vector<std::string>{"dfs", "bfs", "jar"}));
  for (Traversal traversal : kTraversalNames.values()) {
    EXPECT_EQ(*kTraversalNames.parse(kTraversalNames.name(traversal)), traversal);
  }
  auto unknown = kTraversalNames.parse("DFS");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "unknown traversal \"DFS\", expected one of: dfs, bfs, jar");
}

}  // namespace
}  // namespace perflab::prefetch
