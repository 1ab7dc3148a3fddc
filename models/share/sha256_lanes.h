// SHA-256 of two independent messages at once, on the CPU's SHA extensions (SHA-NI).
//
// One SHA-256 stream is bound by the latency of its rounds: every SHA256RNDS2 waits for the one before.
// Two streams whose rounds interleave keep the unit busy twice as often, so the upload, which hashes
// many independent byte strings (each segment for the whole-file hash and for its own hash, the n blocks
// of a segment), hashes them two at a time. The digests are plain SHA-256 (FIPS 180-4), the same bytes
// OpenSSL gives: tests/share/model_test.cpp compares them. Without SHA-NI the rounds are computed in plain
// C++ (FIPS 180-4 section 6.2), one block at a time.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace perflab::share {

// True when this CPU has SHA-NI (and SSE4.1), the instructions the two-lane path needs.
bool sha256_lanes_available();

// A SHA-256 computation fed in pieces; two of them can be fed together (update_pair).
class Sha256 {
 public:
  using Digest = std::array<unsigned char, 32>;

  // On SHA-NI when the CPU has it; `sha_ni = false` computes the rounds in plain C++ (tests compare both).
  explicit Sha256(bool sha_ni = sha256_lanes_available());
  void update(std::string_view data);
  Digest finish();  // once; the object is spent after it

  // a.update(da) and b.update(db), the two streams' blocks compressed side by side.
  static void update_pair(Sha256& a, std::string_view da, Sha256& b, std::string_view db);

 private:
  // Consumes what fills the partial block; returns the rest of `data`, whole blocks first.
  std::string_view top_up(std::string_view data);
  void absorb(std::string_view data);     // after top_up: whole blocks, then keep_tail
  void keep_tail(std::string_view data);  // the last partial block, for the next update or finish

  void compress(const unsigned char* block);

  bool sha_ni_;
  std::array<uint32_t, 8> state_;
  std::array<unsigned char, 64> partial_{};
  size_t partial_size_ = 0;
  uint64_t length_ = 0;  // bytes fed
};

}  // namespace perflab::share
