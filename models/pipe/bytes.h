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
  void add(const uint8_t* data, size_t size) {
    // Blockwise form of sum_of_sums += sum after every byte: for n bytes,
    // sum_of_sums += n * sum + sum over i of (n - i) * data[i]. Two plain reductions the compiler vectorises.
    uint64_t block_sum = 0;
    uint64_t weighted = 0;
    for (size_t i = 0; i < size; ++i) {
      block_sum += data[i];
      weighted += static_cast<uint64_t>(size - i) * data[i];
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

// Deterministic stand-in for pack data: `size` bytes starting at stream offset `offset` of stream `seed`.
inline Bytes content(uint64_t seed, uint64_t offset, size_t size) {
  Bytes out(size);
  for (size_t i = 0; i < size;) {
    uint64_t position = offset + i;
    uint64_t x = seed * 0x9E3779B97F4A7C15ULL + (position >> 3);  // one mixed word per 8 stream bytes
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    for (size_t k = position & 7; k < 8 && i < size; ++k, ++i) out[i] = static_cast<uint8_t>(x >> (8 * k));
  }
  return out;
}

}  // namespace perflab::pipe
