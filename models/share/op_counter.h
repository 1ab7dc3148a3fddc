// Counts the span operations a Share performs, so a simulator can charge loop() CPU as ops x cost-per-op
// (the dispatcher's op_counter.h is the pattern: charge counted work, never a guess).
//
// The rule, in the units a Python profile of Tahoe 1.9 would show:
//   - one op per span element (a [start, length) range of a Spans, a chunk of a DataSpans) read, written,
//     created or erased while an operation walks the sorted list, as spans.py walks its Python lists;
//   - one op per hash-tree node looked up, stored or computed;
//   - one op per call of the loop machinery (loop, _get_satisfaction, each _satisfy_* and _desire_*
//     step, _send_requests) and per Spans it creates, and per log.msg that formats the share's spans with
//     dump() (share.py formats pending/received/unavailable at each loop() entry and exit, the desire
//     bitmaps at the end of _desire and the asks in _send_requests), plus one per element dumped.
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
