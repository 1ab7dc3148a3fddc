// A one-line progress bar on stderr (only when stderr is a terminal): runs done/total, elapsed, ETA.
#pragma once

#include <chrono>
#include <cstddef>

namespace perflab {

class Progress {
 public:
  Progress(size_t total, size_t already_done, bool enabled);
  void advance(bool failed);
  void tick();    // redraws at most a few times per second
  void finish();  // clears the line

 private:
  void draw();
  size_t total_;
  size_t done_;
  size_t done_at_start_;
  size_t failed_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace perflab
