// The bytes that flow through the simulated pipes, and the checksum that proves conservation.
// Pipes carry real bytes (pack-objects' content is generated deterministically), so every pump and writer
// can be checked the same way: the checksum of what the reader got equals the checksum of what was written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace perflab::pipe {

using Bytes = std::vector<uint8_t>;

// Fletcher-style running checksum (sums modulo 2^64): order-sensitive, independent of how the stream is
// cut into pieces.
class Checksum {
 public:
  // Every run adds each byte it moves several times (writer, relay, reader), so this is the pipe study's
  // inner loop. Appending a piece of n bytes with sum s and weighted sum w = sum over i of (n - i) * data[i]
  // gives sum_of_sums += n * sum + w, sum += s; a piece is cut in 16-byte chunks whose constant-length
  // loops the compiler vectorises (32-bit sums: at most 255 * 136 per chunk), the rest a byte at a time.
  void add(const uint8_t* data, size_t size) {
    constexpr size_t kChunk = 16;
    uint64_t block_sum = 0;
    uint64_t weighted = 0;  // of data[0, i)
    size_t i = 0;
    for (; i + kChunk <= size; i += kChunk) {
      uint32_t chunk_sum = 0;
      uint32_t chunk_weighted = 0;
      for (size_t j = 0; j < kChunk; ++j) {
        chunk_sum += data[i + j];
        chunk_weighted += static_cast<uint32_t>(kChunk - j) * data[i + j];
      }
      weighted += kChunk * block_sum + chunk_weighted;
      block_sum += chunk_sum;
    }
    for (; i < size; ++i) {
      block_sum += data[i];
      weighted += block_sum;
    }
    sum_of_sums_ += static_cast<uint64_t>(size) * sum_ + weighted;
    sum_ += block_sum;
    bytes_ += size;
  }
  void add(const Bytes& data) { add(data.data(), data.size()); }
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
  for (; i + 8 <= size; i += 8) {  // whole words, written out so that the compiler merges the stores
    const uint64_t x = content_word(seed, (offset + i) >> 3);
    uint8_t* word = out.data() + i;
    word[0] = static_cast<uint8_t>(x);
    word[1] = static_cast<uint8_t>(x >> 8);
    word[2] = static_cast<uint8_t>(x >> 16);
    word[3] = static_cast<uint8_t>(x >> 24);
    word[4] = static_cast<uint8_t>(x >> 32);
    word[5] = static_cast<uint8_t>(x >> 40);
    word[6] = static_cast<uint8_t>(x >> 48);
    word[7] = static_cast<uint8_t>(x >> 56);
  }
  for (; i < size; ++i) out[i] = byte_at(i);
  return out;
}

}  // namespace perflab::pipe
