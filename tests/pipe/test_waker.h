// A Waker for tests that drive pipes by hand: it records who was woken, in order.
#pragma once

#include <vector>

#include "models/pipe/pipe.h"

namespace perflab::pipe {

class RecordingWaker : public Waker {
 public:
  void wake(ProcessId process) override { woken.push_back(process); }
  bool was_woken(ProcessId process) const {
    for (ProcessId p : woken) {
      if (p == process) return true;
    }
    return false;
  }
  std::vector<ProcessId> woken;
};

inline Bytes bytes_of(size_t size, uint8_t first = 0) {
  Bytes data(size);
  for (size_t i = 0; i < size; ++i) data[i] = static_cast<uint8_t>(first + i);
  return data;
}

}  // namespace perflab::pipe
