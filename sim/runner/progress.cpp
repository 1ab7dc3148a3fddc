#include "sim/runner/progress.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace perflab {

Progress::Progress(size_t total, size_t already_done, bool enabled)
    : total_(total),
      done_(already_done),
      done_at_start_(already_done),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::advance(bool failed) {
  ++done_;
  failed_ += failed;
  draw();
}

void Progress::tick() {
  if (std::chrono::steady_clock::now() - last_draw_ > std::chrono::milliseconds(250)) draw();
}

void Progress::draw() {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  last_draw_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  size_t fresh = done_ - done_at_start_;
  double eta = fresh > 0 ? elapsed / static_cast<double>(fresh) * static_cast<double>(total_ - done_) : 0;
  constexpr int kWidth = 30;
  int filled = total_ > 0 ? static_cast<int>(kWidth * done_ / total_) : kWidth;
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r[%s] %zu/%zu runs%s  %.1fs elapsed  ETA %s   ", bar.c_str(), done_, total_,
               failed_ > 0 ? (", " + std::to_string(failed_) + " failed").c_str() : "", elapsed,
               fresh > 0 ? (std::to_string(std::lround(eta)) + "s").c_str() : "?");
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%100s\r", "");
  std::fflush(stderr);
}

}  // namespace perflab
