// DependencyGraph: built from hand-written nodes, and by scanning every class of the real JGit classpath.
#include "models/prefetch/dependency_graph.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tests/prefetch/real_jgit.h"

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

TEST(PrefetchDependencyGraph, FromNodesSortsDependenciesAndLinksLoadableOnes) {
  Result<DependencyGraph> graph = DependencyGraph::FromNodes({
      {"A", 0, 100, ScanOutcome::kScanned, "", {"java.lang.Object", "B", "A", "X", "B"}},
      {"B", 0, 50, ScanOutcome::kScanned, "", {"B"}},
      {"X", 2, 10, ScanOutcome::kScanned, "", {"X", "A"}},
  });
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(graph->class_count(), 3u);
  EXPECT_EQ(graph->jar_count(), 3);
  const DependencyGraph::Vertex a = *graph->find("A");
  EXPECT_EQ(graph->node(a).dependencies, (Names{"A", "B", "X", "java.lang.Object"}));
  EXPECT_EQ(boost::out_degree(a, graph->graph()), 2u) << "edges to B and X; none to itself or the JDK";
  EXPECT_EQ(boost::num_edges(graph->graph()), 3u);
  EXPECT_TRUE(graph->classes_in_jar(1).empty());
  EXPECT_EQ(graph->classes_in_jar(0).size(), 2u);
  EXPECT_FALSE(graph->find("java.lang.Object").has_value());
}

TEST(PrefetchDependencyGraph, FromNodesRejectsDuplicatesAndNegativeJars) {
  Result<DependencyGraph> duplicate =
      DependencyGraph::FromNodes({{"A", 0, 1, {}, "", {}}, {"A", 1, 1, {}, "", {}}});
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.status().message().find("listed twice"), std::string::npos);
  EXPECT_FALSE(DependencyGraph::FromNodes({{"A", -1, 1, {}, "", {}}}).ok());
}

TEST(PrefetchDependencyGraph, ScansEveryClassOfTheRealJGitClasspath) {
  Result<const testing::RealJGit*> jgit = testing::load_real_j_git();
  ASSERT_TRUE(jgit.ok()) << jgit.status().message();
  const DependencyGraph& graph = *(*jgit)->graph;
  const Classpath& classpath = (*jgit)->classpath;

  EXPECT_EQ(graph.class_count(), classpath.classes().size());
  EXPECT_EQ(graph.jar_count(), classpath.jar_count());
  EXPECT_EQ(graph.count(ScanOutcome::kMalformed), 0u) << "every real class file must scan";
  std::map<std::string, int> unsupported_by_reason;
  for (auto vertex : boost::make_iterator_range(boost::vertices(graph.graph()))) {
    const ClassNode& node = graph.node(vertex);
    if (node.scan == ScanOutcome::kMalformed) ADD_FAILURE() << node.name << ": " << node.scan_problem;
    if (node.scan == ScanOutcome::kUnsupportedConstant) ++unsupported_by_reason[node.scan_problem];
    if (node.prefetchable()) {
      EXPECT_TRUE(std::binary_search(node.dependencies.begin(), node.dependencies.end(), node.name))
          << node.name << " must list itself";
    }
  }
  std::printf("[ jgit     ] %d JARs, %zu classes, %zu dependency edges, %zu unsupported-constant classes\n",
              graph.jar_count(), graph.class_count(), boost::num_edges(graph.graph()),
              graph.count(ScanOutcome::kUnsupportedConstant));
  for (const auto& [reason, count] : unsupported_by_reason) {
    std::printf("[ jgit     ]   %d classes: %s\n", count, reason.c_str());
  }

  // Spot checks against javap -v of the Debian JGit 4.11 class files.
  const ClassNode& repository = graph.node(*graph.find("org.eclipse.jgit.lib.Repository"));
  for (const char* expected : {"org.eclipse.jgit.lib.ObjectId", "org.eclipse.jgit.lib.Ref",
                               "org.eclipse.jgit.lib.StoredConfig", "java.io.File", "java.lang.String"}) {
    EXPECT_TRUE(std::binary_search(repository.dependencies.begin(), repository.dependencies.end(),
                                   std::string(expected)))
        << "Repository should depend on " << expected;
  }
  const ClassNode& main = graph.node(*graph.find("org.eclipse.jgit.pgm.Main"));
  EXPECT_EQ(main.jar, 0);
  EXPECT_TRUE(std::binary_search(main.dependencies.begin(), main.dependencies.end(),
                                 std::string("org.kohsuke.args4j.CmdLineParser")) ||
              std::binary_search(main.dependencies.begin(), main.dependencies.end(),
                                 std::string("org.eclipse.jgit.pgm.opt.CmdLineParser")));
}

}  // namespace
}  // namespace perflab::prefetch
