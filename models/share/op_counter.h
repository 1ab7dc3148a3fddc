// Counts the span operations a Share performs, so a simulator can charge loop() CPU as ops x cost-per-op
// (the dispatcher's op_counter.h is the pattern: charge counted work, never a guess).
//
// The rule: one op per span element (a [start, length) range of a Spans, a chunk of a DataSpans) read,
// written, created or erased while an operation walks the sorted list, as Tahoe's spans.py walks its
// Python lists; plus one op per 32-byte hash node looked up or stored in a hash tree.
#pragma once

#include <cstdint>

namespace perflab::share {

class OpCounter {
 public:
  void add(uint64_t ops = 1) { count_ += ops; }
  uint64_t count() const { return count_; }

 private:
  uint64_t count_ = 0;
};

// Adds to `counter` when it is set: Spans made for a one-off calculation need no counter.
inline void count_ops(OpCounter* counter, uint64_t ops) {
  if (counter != nullptr) counter->add(ops);
}

}  // namespace perflab::share
