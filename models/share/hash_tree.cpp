// HashTree and IncompleteHashTree (see hash_tree.h), after allmydata/hashtree.py.
#include "models/share/hash_tree.h"

#include <algorithm>

#include "models/share/hashes.h"

namespace perflab::share {

size_t roundup_pow2(size_t x) {
  size_t p = 1;
  while (p < x) p *= 2;
  return p;
}

size_t tree_parent(size_t i) {
  return (i - 1) / 2;
}
size_t tree_sibling(size_t i) {
  return i % 2 == 1 ? i + 1 : i - 1;
}

std::vector<size_t> needed_for(size_t i) {
  std::vector<size_t> chain;
  for (size_t here = i; here != 0; here = tree_parent(here)) chain.push_back(tree_sibling(here));
  return chain;
}

namespace {
size_t depth_of(size_t i) {
  size_t depth = 0;
  for (size_t n = i + 1; n > 1; n /= 2) ++depth;
  return depth;
}
}  // namespace

HashTree::HashTree(const std::vector<std::string>& leaves)
    : HashTree([&] {
        std::string flat;
        for (const auto& leaf : leaves) flat += leaf;
        return flat;
      }()) {}

HashTree::HashTree(std::string_view leaves) {
  size_t count = leaves.size() / kHashSize;
  size_t p = roundup_pow2(count);
  first_leaf_num_ = p - 1;
  nodes_.assign((2 * p - 1) * kHashSize, '\0');
  nodes_.replace(first_leaf_num_ * kHashSize, leaves.size(), leaves);
  for (size_t i = count; i < p; ++i)
    nodes_.replace((first_leaf_num_ + i) * kHashSize, kHashSize, empty_leaf_hash(i));
  for (size_t i = first_leaf_num_; i-- > 0;)
    nodes_.replace(i * kHashSize, kHashSize, merkle_pair_hash(view(2 * i + 1), view(2 * i + 2)));
}

std::set<size_t> HashTree::needed_hashes(size_t leaf, bool include_leaf) const {
  auto chain = needed_for(first_leaf_num_ + leaf);
  std::set<size_t> needed(chain.begin(), chain.end());
  if (include_leaf) needed.insert(first_leaf_num_ + leaf);
  return needed;
}

IncompleteHashTree::IncompleteHashTree(size_t num_leaves, Retention retention)
    : num_leaves_(num_leaves), retention_(retention) {
  size_t p = roundup_pow2(num_leaves);
  first_leaf_num_ = p - 1;
  known_.assign(2 * p - 1, false);
}

std::optional<std::string_view> IncompleteHashTree::node(size_t i) const {
  if (!known_[i]) return std::nullopt;
  return stored(i);
}

void IncompleteHashTree::store(size_t i, std::string_view hash) {
  std::copy(hash.begin(), hash.end(), held_[i].hash.begin());
  known_[i] = true;
  added_.push_back(i);
}

void IncompleteHashTree::forget(size_t i) {
  known_[i] = false;
  held_.erase(i);
}

void IncompleteHashTree::forget_added() {
  for (size_t i : added_) forget(i);
}

// A checked leaf is retired; a parent whose children are both retired is retired in turn, and keeps their
// hash for them (they and what is under them are forgotten). Every node on the way is known: a batch that
// checks computes each new node's parent.
void IncompleteHashTree::retire_leaf(size_t leaf) {
  size_t i = first_leaf_num_ + leaf;
  held_.at(i).retired = true;
  while (i != 0) {
    auto sibling = held_.find(tree_sibling(i));
    if (sibling == held_.end() || !sibling->second.retired) return;
    size_t parent = tree_parent(i);
    held_.at(parent).retired = true;
    forget(sibling->first);
    forget(i);
    i = parent;
  }
}

std::vector<size_t> IncompleteHashTree::needed_hashes(size_t leaf, bool include_leaf, OpCounter* ops) const {
  // The sibling chain from the leaf up to the root's children (needed_for), and the leaf itself.
  const size_t leaf_node = first_leaf_num_ + leaf;
  std::vector<size_t> needed;
  size_t chain = 0;
  for (size_t here = leaf_node; here != 0; here = tree_parent(here)) {
    ++chain;
    size_t sibling = tree_sibling(here);
    if (!known_[sibling]) needed.push_back(sibling);
  }
  if (include_leaf) {
    ++chain;
    if (!known_[leaf_node]) needed.push_back(leaf_node);
  }
  count_ops(ops, chain);
  std::sort(needed.begin(), needed.end());
  return needed;
}

Status IncompleteHashTree::fail(Failure failure, std::string message) {
  last_failure_ = failure;
  return Status::Error(std::move(message));
}

Status IncompleteHashTree::set_hashes(const std::map<size_t, std::string>& hashes,
                                      const std::map<size_t, std::string>& leaves, OpCounter* ops) {
  last_failure_ = Failure::kNone;
  // The batch by node index, ascending: `hashes`, and `leaves` at their nodes.
  std::vector<std::pair<size_t, std::string_view>> batch(hashes.begin(), hashes.end());
  for (const auto& [leaf, hash] : leaves) {
    size_t i = first_leaf_num_ + leaf;
    auto it = hashes.find(i);
    if (it != hashes.end()) {
      if (it->second != hash)
        return fail(Failure::kBadHash, "conflicting hashes for leaf " + std::to_string(leaf));
      continue;
    }
    batch.emplace_back(i, hash);
  }
  if (!leaves.empty()) std::sort(batch.begin(), batch.end());
  for (const auto& [i, hash] : batch) {
    if (i >= known_.size())
      return fail(Failure::kBadHash, "hash index " + std::to_string(i) + " out of range");
    if (hash.size() != kHashSize)
      return fail(Failure::kBadHash, "hash of " + std::to_string(hash.size()) + " bytes at node " +
                                         std::to_string(i) + ", expected " + std::to_string(kHashSize));
  }
  added_.clear();  // forgotten again if the batch does not check
  to_check_.resize(depth_of(known_.size() - 1) + 1);
  for (auto& level : to_check_) level.clear();
  for (const auto& [i, hash] : batch) {
    count_ops(ops, 1);
    if (known_[i]) {
      if (stored(i) != hash) {
        forget_added();
        return fail(Failure::kBadHash, "new hash does not match existing hash at node " + std::to_string(i));
      }
    } else {
      store(i, hash);
      to_check_[depth_of(i)].push_back(i);
    }
  }
  // Bottom-up: every new node's parent is computed from it and its sibling, and checked or stored. A level
  // is walked in ascending order; a node whose sibling was just checked with it is not checked again.
  for (size_t level = to_check_.size(); level-- > 1;) {
    std::vector<size_t>& nodes = to_check_[level];
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (size_t at = 0; at < nodes.size(); ++at) {
      size_t i = nodes[at];
      size_t sibling = tree_sibling(i);
      if (!known_[sibling]) {
        forget_added();
        return fail(Failure::kNotEnoughHashes, "unable to validate node " + std::to_string(i));
      }
      if (at + 1 < nodes.size() && nodes[at + 1] == sibling) ++at;
      size_t left = i % 2 == 1 ? i : sibling;
      std::string computed = merkle_pair_hash(stored(left), stored(left + 1));
      size_t parent = tree_parent(i);
      count_ops(ops, 2);
      if (known_[parent]) {
        if (stored(parent) != computed) {
          forget_added();
          return fail(Failure::kBadHash, "hash mismatch at node " + std::to_string(parent));
        }
      } else {
        store(parent, computed);
        to_check_[level - 1].push_back(parent);
      }
    }
  }
  if (retention_ == Retention::kFrontier) {
    for (const auto& [leaf, hash] : leaves)
      if (leaf < num_leaves_) retire_leaf(leaf);
  }
  return Status::OK();
}

}  // namespace perflab::share
