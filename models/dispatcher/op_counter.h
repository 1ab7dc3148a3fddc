// Counts the work a locked section does, so a simulator can charge lock hold time as ops x ns_per_op.
//
// The rule, the same for every strategy ("elements touched"):
//   - one op per element of a queue or list that is read while walking it (a ready call examined, a
//     running call compared during a per-host scan or a search for the call to remove);
//   - one op per element appended, popped or moved between lists, and per hash-map lookup/insert/erase;
//   - an ordered-set (balanced tree) insert, erase or take-smallest costs the length of a root-to-leaf
//     path: floor(log2(size)) + 1 for a tree of `size` elements (1 for an empty tree).
// Snapshots taken for observation (ready_async_calls() and friends) are not counted.
#pragma once

#include <cstddef>
#include <cstdint>

namespace perflab::dispatcher {

class OpCounter {
 public:
  void visit(uint64_t elements = 1) { count_ += elements; }
  void tree_operation(size_t tree_size) {
    count_ += tree_size <= 1 ? 1 : 64 - __builtin_clzll(tree_size);  // floor(log2(size)) + 1
  }
  uint64_t count() const { return count_; }

 private:
  uint64_t count_ = 0;
};

}  // namespace perflab::dispatcher
