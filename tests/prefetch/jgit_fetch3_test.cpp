// fetch3 on a real JGit class: the reply for org.eclipse.jgit.pgm.Clone (the command the captured workload
// runs) at depth 1 and 2, prune threshold 1, on the committed classpath. The expected names were worked out
// from `javap -v` of the Debian JARs (CONSTANT_Class names and NameAndType descriptors, as Remoting scans
// them) and the PR #721 pseudo-code of prefetch_server.h. tests/python/test_models_prefetch.py asserts the
// same names through the Python binding.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/prefetch/prefetch_server.h"
#include "tests/prefetch/real_jgit.h"

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

// Depth 1: Clone, then its loadable dependencies in sorted order (the JDK classes are marked, not sent).
const Names kCloneDepth1 = {
    "org.eclipse.jgit.pgm.Clone",
    "org.eclipse.jgit.api.CloneCommand",
    "org.eclipse.jgit.api.CloneCommand$Callback",
    "org.eclipse.jgit.api.Git",
    "org.eclipse.jgit.api.errors.InvalidRemoteException",
    "org.eclipse.jgit.lib.AnyObjectId",
    "org.eclipse.jgit.lib.Constants",
    "org.eclipse.jgit.lib.ObjectId",
    "org.eclipse.jgit.lib.ProgressMonitor",
    "org.eclipse.jgit.lib.Repository",
    "org.eclipse.jgit.lib.TextProgressMonitor",
    "org.eclipse.jgit.pgm.AbstractFetchCommand",
    "org.eclipse.jgit.pgm.Die",
    "org.eclipse.jgit.pgm.internal.CLIText",
    "org.eclipse.jgit.transport.URIish",
    "org.eclipse.jgit.util.SystemReader",
    "org.eclipse.jgit.util.io.ThrowingPrintWriter",
};

// Depth 2: only the classes of Clone's own JAR (org.eclipse.jgit.pgm.jar) are expanded from level 1 on;
// AbstractFetchCommand comes first in sorted order and marks URIish, CLIText and ThrowingPrintWriter, so
// they are sent from there; Die adds nothing new; the org.eclipse.jgit.jar classes are sent, not expanded.
const Names kCloneDepth2 = {
    "org.eclipse.jgit.pgm.Clone",
    "org.eclipse.jgit.api.CloneCommand",
    "org.eclipse.jgit.api.CloneCommand$Callback",
    "org.eclipse.jgit.api.Git",
    "org.eclipse.jgit.api.errors.InvalidRemoteException",
    "org.eclipse.jgit.lib.AnyObjectId",
    "org.eclipse.jgit.lib.Constants",
    "org.eclipse.jgit.lib.ObjectId",
    "org.eclipse.jgit.lib.ProgressMonitor",
    "org.eclipse.jgit.lib.Repository",
    "org.eclipse.jgit.lib.TextProgressMonitor",
    "org.eclipse.jgit.pgm.AbstractFetchCommand",
    "org.eclipse.jgit.lib.AbbreviatedObjectId",
    "org.eclipse.jgit.lib.ObjectReader",
    "org.eclipse.jgit.lib.RefUpdate",
    "org.eclipse.jgit.lib.RefUpdate$Result",
    "org.eclipse.jgit.pgm.TextBuiltin",
    "org.eclipse.jgit.pgm.internal.CLIText",
    "org.eclipse.jgit.transport.FetchResult",
    "org.eclipse.jgit.transport.TrackingRefUpdate",
    "org.eclipse.jgit.transport.URIish",
    "org.eclipse.jgit.util.io.ThrowingPrintWriter",
    "org.eclipse.jgit.pgm.Die",
    "org.eclipse.jgit.util.SystemReader",
};

Names fetch3_names(const DependencyGraph& graph, int depth, const std::string& name) {
  PrefetchServer server(graph, {depth, 1, Traversal::kDfs});
  Names names;
  for (const SentClass& sent : server.fetch3(name)) names.push_back(sent.name);
  return names;
}

TEST(PrefetchJGitFetch3, CloneAtDepthOneAndTwo) {
  Result<const testing::RealJGit*> jgit = testing::load_real_j_git();
  ASSERT_TRUE(jgit.ok()) << jgit.status().message();
  const DependencyGraph& graph = *(*jgit)->graph;
  EXPECT_EQ(fetch3_names(graph, 1, "org.eclipse.jgit.pgm.Clone"), kCloneDepth1);
  EXPECT_EQ(fetch3_names(graph, 2, "org.eclipse.jgit.pgm.Clone"), kCloneDepth2);
  EXPECT_EQ(fetch3_names(graph, 0, "org.eclipse.jgit.pgm.Clone"), Names{"org.eclipse.jgit.pgm.Clone"});
}

}  // namespace
}  // namespace perflab::prefetch
