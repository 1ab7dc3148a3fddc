// HashTree and IncompleteHashTree (see hash_tree.h), after allmydata/hashtree.py.
#include "models/share/hash_tree.h"

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

IncompleteHashTree::IncompleteHashTree(size_t num_leaves) : num_leaves_(num_leaves) {
  size_t p = roundup_pow2(num_leaves);
  first_leaf_num_ = p - 1;
  nodes_.resize(2 * p - 1);
}

std::set<size_t> IncompleteHashTree::needed_hashes(size_t leaf, bool include_leaf, OpCounter* ops) const {
  auto chain = needed_for(first_leaf_num_ + leaf);
  if (include_leaf) chain.push_back(first_leaf_num_ + leaf);
  count_ops(ops, chain.size());
  std::set<size_t> needed;
  for (size_t i : chain) {
    if (!nodes_[i]) needed.insert(i);
  }
  return needed;
}

Status IncompleteHashTree::fail(Failure failure, std::string message) {
  last_failure_ = failure;
  return Status::Error(std::move(message));
}

Status IncompleteHashTree::set_hashes(const std::map<size_t, std::string>& hashes,
                                      const std::map<size_t, std::string>& leaves, OpCounter* ops) {
  last_failure_ = Failure::kNone;
  std::map<size_t, std::string> new_hashes = hashes;
  for (const auto& [leaf, hash] : leaves) {
    size_t i = first_leaf_num_ + leaf;
    auto it = new_hashes.find(i);
    if (it != new_hashes.end() && it->second != hash) {
      return fail(Failure::kBadHash, "conflicting hashes for leaf " + std::to_string(leaf));
    }
    new_hashes[i] = hash;
  }
  for (const auto& [i, hash] : new_hashes) {
    if (i >= nodes_.size())
      return fail(Failure::kBadHash, "hash index " + std::to_string(i) + " out of range");
  }
  std::vector<size_t> added;  // forgotten again if the batch does not check
  auto forget = [&] {
    for (size_t i : added) nodes_[i].reset();
  };
  std::vector<std::set<size_t>> to_check(depth_of(nodes_.size() - 1) + 1);
  for (const auto& [i, hash] : new_hashes) {
    count_ops(ops, 1);
    if (nodes_[i]) {
      if (*nodes_[i] != hash) {
        forget();
        return fail(Failure::kBadHash, "new hash does not match existing hash at node " + std::to_string(i));
      }
    } else {
      nodes_[i] = hash;
      added.push_back(i);
      to_check[depth_of(i)].insert(i);
    }
  }
  // Bottom-up: every new node's parent is computed from it and its sibling, and checked or stored.
  for (size_t level = to_check.size(); level-- > 1;) {
    while (!to_check[level].empty()) {
      size_t i = *to_check[level].begin();
      to_check[level].erase(to_check[level].begin());
      size_t sibling = tree_sibling(i);
      if (!nodes_[sibling]) {
        forget();
        return fail(Failure::kNotEnoughHashes, "unable to validate node " + std::to_string(i));
      }
      to_check[level].erase(sibling);
      size_t left = i % 2 == 1 ? i : sibling;
      std::string computed = merkle_pair_hash(*nodes_[left], *nodes_[left + 1]);
      size_t parent = tree_parent(i);
      count_ops(ops, 2);
      if (nodes_[parent]) {
        if (*nodes_[parent] != computed) {
          forget();
          return fail(Failure::kBadHash, "hash mismatch at node " + std::to_string(parent));
        }
      } else {
        nodes_[parent] = computed;
        added.push_back(parent);
        to_check[level - 1].insert(parent);
      }
    }
  }
  return Status::OK();
}

}  // namespace perflab::share
