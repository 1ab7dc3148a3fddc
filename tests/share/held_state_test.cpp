// What a download holds does not grow with the file (#46): the downloader's segment trees keep only the
// frontier of a sequential download (IncompleteHashTree::Retention::kFrontier) yet ask for, check and count
// exactly what trees holding every node would; counted in held hashes, not bytes of RSS.
#include <gtest/gtest.h>

#include <string>

#include "models/share/hash_tree.h"
#include "models/share/hashes.h"
#include "models/share/layout.h"
#include "models/share/local_download.h"

namespace perflab::share {
namespace {

size_t max_held_hashes(uint64_t segments) {
  constexpr uint64_t kSegment = 4098;  // a multiple of k = 3
  const uint64_t size = segments * kSegment - 100;
  auto file = encode_file(make_contents(size, 7), 3, 5, kSegment);
  EXPECT_TRUE(file.ok()) << file.status().message();
  LocalDownloadStats got = run_local_download(*file, file->shares(), {});
  EXPECT_TRUE(got.result.done) << got.result.error;
  EXPECT_EQ(got.contents, file->contents());
  return got.max_held_hashes;
}

TEST(HeldState, SixteenTimesTheSegmentsHoldFewMoreHashes) {
  const size_t small = max_held_hashes(64);    // P = 64: 127 nodes a tree
  const size_t large = max_held_hashes(1024);  // P = 1024: 2047 nodes a tree
  // Four trees with a leaf per segment (the ciphertext tree and three block trees) grow by a few nodes a
  // level; trees holding every node would hold ~16 times as many.
  EXPECT_LE(large, small + 4 * 3 * 4) << "small " << small << ", large " << large;
  EXPECT_LT(large, 2 * 1024) << "small " << small << ", large " << large;
}

TEST(HeldState, FrontierTreeAsksChecksAndCountsWhatAWholeTreeDoes) {
  constexpr size_t kLeaves = 1000;  // P = 1024: padding on the right
  std::vector<std::string> leaves;
  for (size_t i = 0; i < kLeaves; ++i) leaves.push_back(block_hash(std::to_string(i)));
  HashTree full(leaves);
  IncompleteHashTree whole(kLeaves);
  IncompleteHashTree frontier(kLeaves, IncompleteHashTree::Retention::kFrontier);
  ASSERT_TRUE(whole.set_hashes({{0, full[0]}}).ok());
  ASSERT_TRUE(frontier.set_hashes({{0, full[0]}}).ok());
  size_t most_held = 0;
  for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
    OpCounter whole_ops;
    OpCounter frontier_ops;
    auto needed = whole.needed_hashes(leaf, true, &whole_ops);
    ASSERT_EQ(frontier.needed_hashes(leaf, true, &frontier_ops), needed) << "leaf " << leaf;
    std::map<size_t, std::string> hashes;
    for (size_t node : needed) hashes[node] = full[node];
    ASSERT_TRUE(whole.set_hashes(hashes, {}, &whole_ops).ok());
    ASSERT_TRUE(frontier.set_hashes(hashes, {}, &frontier_ops).ok());
    std::string wrong = leaves[(leaf + 1) % kLeaves];
    ASSERT_FALSE(frontier.set_hashes({}, {{leaf, wrong}}).ok()) << "leaf " << leaf;
    ASSERT_TRUE(whole.set_hashes({}, {{leaf, leaves[leaf]}}, &whole_ops).ok());
    ASSERT_TRUE(frontier.set_hashes({}, {{leaf, leaves[leaf]}}, &frontier_ops).ok());
    ASSERT_EQ(frontier_ops.count(), whole_ops.count()) << "leaf " << leaf;
    most_held = std::max(most_held, frontier.held_hashes());
  }
  EXPECT_LE(most_held, 3 * 11U);  // a few nodes for each of the 11 levels
  EXPECT_GE(whole.held_hashes(), 2 * kLeaves);
  // A leaf checked again after its subtree was forgotten: its siblings are asked for again, and it is
  // checked against the node kept above them.
  auto again = frontier.needed_hashes(5, true);
  ASSERT_FALSE(again.empty());
  std::map<size_t, std::string> chain;
  for (size_t node : again) chain[node] = full[node];
  EXPECT_FALSE(frontier.set_hashes(chain, {{5, leaves[6]}}).ok());
  EXPECT_TRUE(frontier.set_hashes(chain, {{5, leaves[5]}}).ok());
}

}  // namespace
}  // namespace perflab::share
