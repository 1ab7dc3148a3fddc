// TokenBucket: the bandwidth of one direction of a real link, applied in user space (this kernel has no
// netem). Tokens are bytes, refilled at `rate` bytes/s up to `burst` bytes; a message takes its size in
// tokens, going into debt when there are too few, and its last byte leaves once the debt is repaid. With
// no burst it is a FIFO serializer: back-to-back messages leave bytes/rate apart, as on SimGrid's link.
#pragma once

#include <algorithm>
#include <cstdint>

namespace perflab::real {

class TokenBucket {
 public:
  TokenBucket(double rate_bytes_per_s, double burst_bytes) : rate_(rate_bytes_per_s), burst_(burst_bytes) {}

  // Takes `bytes` tokens at `now_ns`; returns when the message's last byte has left (>= now_ns).
  std::int64_t take(double bytes, std::int64_t now_ns) {
    if (started_) {
      double refill = static_cast<double>(now_ns - last_ns_) * 1e-9 * rate_;
      tokens_ = std::min(burst_, tokens_ + std::max(0.0, refill));
    } else {
      tokens_ = burst_;
      started_ = true;
    }
    last_ns_ = std::max(last_ns_, now_ns);
    tokens_ -= bytes;
    if (tokens_ >= 0) return now_ns;
    return now_ns + static_cast<std::int64_t>(-tokens_ / rate_ * 1e9);
  }

 private:
  double rate_;
  double burst_;
  double tokens_ = 0;
  std::int64_t last_ns_ = 0;
  bool started_ = false;
};

}  // namespace perflab::real
