// The pipe study's bytes (models/pipe/bytes.h): content() and Checksum, which every run computes over
// every byte it moves, are fast forms of simple definitions; these tests hold them to the definitions
// (byte by byte, at every offset and cut) and pin their values, so a faster form cannot change a result.
#include "models/pipe/bytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace perflab::pipe {
namespace {

// content()'s definition: byte i of stream `seed` is byte (i mod 8) of a mix of word i / 8, low byte first.
uint8_t content_byte(uint64_t seed, uint64_t position) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ULL + (position >> 3);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 29;
  return static_cast<uint8_t>(x >> (8 * (position & 7)));
}

// Checksum's definition, a byte at a time: sum += byte; sum_of_sums += sum.
struct DefinitionChecksum {
  uint64_t sum = 0, sum_of_sums = 0;
  void add(uint8_t byte) {
    sum += byte;
    sum_of_sums += sum;
  }
  uint64_t value() const { return sum_of_sums ^ (sum * 0x9E3779B97F4A7C15ULL); }
};

TEST(Bytes, ContentIsItsDefinitionAtEveryOffsetAndSize) {
  for (uint64_t offset = 0; offset < 40; ++offset) {
    for (size_t size = 0; size < 80; ++size) {
      Bytes got = content(11, offset, size);
      ASSERT_EQ(got.size(), size);
      for (size_t i = 0; i < size; ++i)
        ASSERT_EQ(got[i], content_byte(11, offset + i)) << offset << " " << size;
    }
  }
}

TEST(Bytes, ChecksumIsItsDefinitionHoweverTheStreamIsCut) {
  std::mt19937_64 random(5);
  Bytes data = content(3, 5, 300000);
  for (int trial = 0; trial < 20; ++trial) {
    Checksum cut;
    DefinitionChecksum byte_by_byte;
    for (size_t at = 0; at < data.size();) {
      size_t piece = std::min<size_t>(data.size() - at, random() % (trial < 10 ? 40 : 70000));
      cut.add(data.data() + at, piece);
      at += piece;
    }
    for (uint8_t byte : data) byte_by_byte.add(byte);
    EXPECT_EQ(cut.value(), byte_by_byte.value());
    EXPECT_EQ(cut.bytes(), data.size());
  }
}

TEST(Bytes, ALongPieceIsItsDefinition) {  // more than the 4,096 chunks of 16 bytes the lanes hold
  for (size_t size : {65535, 65536, 65537, 65551, 1000003}) {
    Bytes data = content(9, 1, size);
    Checksum whole;
    whole.add(data);
    DefinitionChecksum byte_by_byte;
    for (uint8_t byte : data) byte_by_byte.add(byte);
    EXPECT_EQ(whole.value(), byte_by_byte.value()) << size;
  }
}

TEST(Bytes, AppendingAChecksumIsAddingItsBytes) {
  Bytes data = content(4, 0, 20000);
  for (size_t cut : {0, 1, 5, 16, 8193, 20000}) {
    Checksum first, second, whole;
    first.add(data.data(), cut);
    second.add(data.data() + cut, data.size() - cut);
    first.append(second);
    whole.add(data);
    EXPECT_EQ(first, whole) << cut;
    EXPECT_EQ(first.value(), whole.value());
  }
}

TEST(Bytes, ValuesArePinned) {  // computed with the byte-at-a-time forms these replaced
  Checksum checksum;
  checksum.add(content(1, 3, 1 << 20));
  EXPECT_EQ(checksum.value(), 2314381657578675739ULL);
}

}  // namespace
}  // namespace perflab::pipe
