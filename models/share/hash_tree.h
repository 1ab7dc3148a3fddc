// Merkle trees as in allmydata/hashtree.py: a complete binary tree in an array, node i's children at 2i+1
// and 2i+2, P = leaves rounded up to a power of two, 2P-1 nodes; padding leaves are empty_leaf_hash(i).
//   HashTree            built from all the leaves (the uploader's side: what a share stores), its nodes
//                       held as the share stores them, 32 bytes each, node i at 32*i.
//   IncompleteHashTree  the downloader's side: starts empty, needed_hashes(leaf, include_leaf) names the
//                       nodes still missing to validate a leaf, set_hashes() stores nodes and leaves,
//                       computes every parent it can and rejects (and forgets) the whole batch when a
//                       computed parent disagrees with a stored one (BadHashError) or a node cannot be
//                       checked because its sibling is missing (NotEnoughHashesError). A bit per node
//                       says which are known; their hashes are held by node index.
//                       Retention::kFrontier (the downloader's trees) forgets what a forward download can
//                       no longer ask about: once every leaf under a node has been checked (set as a
//                       leaf, not merely received as a node), the node is kept and the nodes under it are
//                       forgotten, as if never received. A sequential download then holds O(log P) hashes
//                       per tree (#46: 61 whole trees were 512 MB at 10 GiB) and asks for, computes and
//                       counts exactly what a tree holding everything would; a leaf checked again later
//                       asks for its forgotten siblings again and is checked against the kept node.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/common/status.h"
#include "models/share/hashes.h"
#include "models/share/op_counter.h"

namespace perflab::share {

size_t roundup_pow2(size_t x);
size_t tree_parent(size_t i);
size_t tree_sibling(size_t i);
std::vector<size_t> needed_for(size_t i);  // the sibling chain from node i up to (not including) the root

class HashTree {
 public:
  explicit HashTree(const std::vector<std::string>& leaves);
  // `leaves`: the leaf hashes end to end, 32 bytes each.
  explicit HashTree(std::string_view leaves);
  std::string operator[](size_t i) const { return std::string(view(i)); }
  std::string_view view(size_t i) const { return std::string_view(nodes_).substr(32 * i, 32); }
  size_t size() const { return nodes_.size() / 32; }
  const std::string& bytes() const { return nodes_; }  // the tree's section of a share
  size_t first_leaf_num() const { return first_leaf_num_; }
  std::set<size_t> needed_hashes(size_t leaf, bool include_leaf = false) const;

 private:
  std::string nodes_;
  size_t first_leaf_num_;
};

class IncompleteHashTree {
 public:
  enum class Failure { kNone, kBadHash, kNotEnoughHashes };
  enum class Retention { kWhole, kFrontier };

  explicit IncompleteHashTree(size_t num_leaves, Retention retention = Retention::kWhole);
  size_t num_leaves() const { return num_leaves_; }
  size_t size() const { return known_.size(); }
  size_t first_leaf_num() const { return first_leaf_num_; }
  bool has(size_t i) const { return known_[i]; }
  std::optional<std::string_view> node(size_t i) const;  // its 32 bytes, if known
  std::optional<std::string_view> leaf(size_t leaf) const { return node(first_leaf_num_ + leaf); }
  size_t held_hashes() const { return held_.size(); }  // the hashes it holds now

  // The nodes not yet known that validating `leaf` needs (never the root), ascending.
  std::vector<size_t> needed_hashes(size_t leaf, bool include_leaf = false, OpCounter* ops = nullptr) const;
  // Stores `hashes` (by node index) and `leaves` (by leaf number) if all of them check; else nothing.
  // A hash that is not 32 bytes is a bad hash.
  Status set_hashes(const std::map<size_t, std::string>& hashes,
                    const std::map<size_t, std::string>& leaves = {}, OpCounter* ops = nullptr);
  Failure last_failure() const { return last_failure_; }

 private:
  struct Held {
    std::array<char, kHashSize> hash;
    bool retired = false;  // kFrontier: every leaf under it checked
  };

  Status fail(Failure failure, std::string message);
  std::string_view stored(size_t i) const {
    const auto& hash = held_.at(i).hash;
    return std::string_view(hash.data(), hash.size());
  }
  void store(size_t i, std::string_view hash);
  void forget(size_t i);
  void forget_added();
  void retire_leaf(size_t leaf);

  std::vector<bool> known_;  // by node
  std::unordered_map<size_t, Held> held_;
  size_t num_leaves_;
  size_t first_leaf_num_;
  Retention retention_;
  Failure last_failure_ = Failure::kNone;
  // set_hashes()'s scratch, kept between calls: the nodes a batch added, and those still to check by depth.
  std::vector<size_t> added_;
  std::vector<std::vector<size_t>> to_check_;
};

}  // namespace perflab::share
