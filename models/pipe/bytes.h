// The bytes that flow through the simulated pipes, and the checksum that proves conservation.
// Pipes carry real bytes (pack-objects' content is generated deterministically), so every pump and writer
// can be checked the same way: the checksum of what the reader got equals the checksum of what was written.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace perflab::pipe {

using Bytes = std::vector<uint8_t>;

// Fletcher-style running checksum (sums modulo 2^64): order-sensitive, independent of how the stream is
// cut into pieces. Byte by byte it is: sum += byte; sum_of_sums += sum.
class Checksum {
 public:
  // Every run adds each byte it moves several times (writer, relay, reader), so this is the pipe study's
  // inner loop. The bytes are summed in 16 lanes, lane j holding bytes j, j + 16, j + 32, ... of the piece,
  // in loops of constant length the compiler vectorises: after chunk k (bytes 16k .. 16k + 15), lane_sum[j]
  // is the sum of lane j's bytes so far and lane_sums[j] the sum of lane_sum[j] after each chunk 0 .. k. Over
  // K chunks, byte 16k + j has weight 16 (K - 1 - k) + (16 - j) in the piece's sum of sums (see append), so
  // that is the sum over the lanes of 16 (lane_sums[j] - lane_sum[j]) + (16 - j) lane_sum[j]. 32-bit lanes
  // hold 4,096 chunks (255 * 4,096 * 4,097 / 2 < 2^32); the rest goes a byte at a time. All sums are modulo
  // 2^64, so any order of adding gives the same values.
  void add(const uint8_t* data, size_t size) {
    constexpr size_t kLanes = 16;
    constexpr size_t kMaxChunks = 4096;
    size_t i = 0;
    while (size - i >= kLanes) {
      const size_t chunks = std::min((size - i) / kLanes, kMaxChunks);
      uint32_t lane_sum[kLanes] = {};
      uint32_t lane_sums[kLanes] = {};
      for (size_t k = 0; k < chunks; ++k, i += kLanes) {
        for (size_t j = 0; j < kLanes; ++j) {
          lane_sum[j] += data[i + j];
          lane_sums[j] += lane_sum[j];
        }
      }
      Checksum piece;
      for (size_t j = 0; j < kLanes; ++j) {
        piece.sum_ += lane_sum[j];
        piece.sum_of_sums_ += kLanes * static_cast<uint64_t>(lane_sums[j] - lane_sum[j]) +
                              (kLanes - j) * static_cast<uint64_t>(lane_sum[j]);
      }
      piece.bytes_ = chunks * kLanes;
      append(piece);
    }
    for (; i < size; ++i) {
      sum_ += data[i];
      sum_of_sums_ += sum_;
      ++bytes_;
    }
  }
  void add(const Bytes& data) { add(data.data(), data.size()); }
  // The checksum of this stream followed by `next`'s: each of next's sums of sums also counts this stream's
  // sum once per byte of next.
  void append(const Checksum& next) {
    sum_of_sums_ += next.bytes_ * sum_ + next.sum_of_sums_;
    sum_ += next.sum_;
    bytes_ += next.bytes_;
  }
  uint64_t bytes() const { return bytes_; }
  uint64_t value() const { return sum_of_sums_ ^ (sum_ * 0x9E3779B97F4A7C15ULL); }
  bool operator==(const Checksum& other) const {
    return bytes_ == other.bytes_ && sum_ == other.sum_ && sum_of_sums_ == other.sum_of_sums_;
  }
  bool operator!=(const Checksum& other) const { return !(*this == other); }

 private:
  uint64_t sum_ = 0;
  uint64_t sum_of_sums_ = 0;
  uint64_t bytes_ = 0;
};

// Deterministic stand-in for pack data: `size` bytes starting at stream offset `offset` of stream `seed`:
// byte p of the stream is byte p mod 8 (low byte first) of a mix of word p / 8.
inline uint64_t content_word(uint64_t seed, uint64_t index) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ULL + index;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 29;
  return x;
}

inline Bytes content(uint64_t seed, uint64_t offset, size_t size) {
  Bytes out(size);
  auto byte_at = [&](size_t i) {
    const uint64_t position = offset + i;
    return static_cast<uint8_t>(content_word(seed, position >> 3) >> (8 * (position & 7)));
  };
  size_t i = 0;
  for (; i < size && ((offset + i) & 7) != 0; ++i) out[i] = byte_at(i);  // up to a word boundary
  // Whole words, each one 8-byte store: low byte first on the little-endian hosts perflab builds for. (Byte
  // by byte stores let the compiler vectorise the loop, and SSE2 has no 64-bit multiply: half the speed.)
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "content() stores words low byte first");
  for (; i + 8 <= size; i += 8) {
    const uint64_t x = content_word(seed, (offset + i) >> 3);
    std::memcpy(out.data() + i, &x, sizeof x);
  }
  for (; i < size; ++i) out[i] = byte_at(i);
  return out;
}

}  // namespace perflab::pipe
