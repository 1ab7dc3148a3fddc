// SHA-256 of models/share/sha256_lanes.h against OpenSSL's (EVP_Digest, the reference), alone and through
// the hashes the share layout uses (hashes.h hashes small messages on it): every length around the block
// boundaries, split at several points, on SHA-NI and in plain C++, one stream and two side by side.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>
#include <vector>

#include "models/share/hashes.h"
#include "models/share/layout.h"
#include "models/share/sha256_lanes.h"

namespace perflab::share {
namespace {

std::string as_bytes(const Sha256::Digest& digest) {
  return std::string(reinterpret_cast<const char*>(digest.data()), digest.size());
}

// SHA256(data) by OpenSSL.
std::string reference(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EXPECT_EQ(EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr), 1);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string reference_double(std::string_view data) {
  return reference(reference(data));
}

std::string reference_tagged(std::string_view tag, std::string_view data) {
  return reference_double(netstring(tag) + std::string(data));
}

// sha256d(data) through Sha256: SHA256(SHA256(data)), the data fed in two pieces.
std::string double_hash(std::string_view data, size_t split, bool sha_ni) {
  Sha256 inner(sha_ni);
  inner.update(data.substr(0, split));
  inner.update(data.substr(split));
  Sha256 outer(sha_ni);
  outer.update(as_bytes(inner.finish()));
  return as_bytes(outer.finish());
}

const std::string& bytes() {
  static const std::string contents = make_contents(4096, 7);
  return contents;
}

TEST(Sha256Lanes, OneStreamMatchesOpenSsl) {
  for (bool sha_ni : {false, true}) {
    for (size_t length = 0; length <= 700; ++length) {
      std::string_view data = std::string_view(bytes()).substr(0, length);
      for (size_t split : {size_t{0}, length / 3, length}) {
        ASSERT_EQ(double_hash(data, split, sha_ni), reference_double(data))
            << "length " << length << ", split " << split << ", sha_ni " << sha_ni;
      }
      ASSERT_EQ(sha256d(data), reference_double(data)) << length;
      ASSERT_EQ(merkle_pair_hash(data.substr(0, length / 2), data.substr(length / 2)),
                reference_tagged("Merkle tree internal node",
                                 netstring(data.substr(0, length / 2)) + netstring(data.substr(length / 2))))
          << length;
    }
  }
}

TEST(Sha256Lanes, TwoStreamsSideBySideMatchOneByOne) {
  for (bool sha_ni : {false, true}) {
    for (size_t length = 0; length <= 300; length += 7) {
      // Stream a already holds a partial block; b starts empty and is longer.
      std::string_view head = std::string_view(bytes()).substr(1000, 29);
      std::string_view da = std::string_view(bytes()).substr(0, length);
      std::string_view db = std::string_view(bytes()).substr(3, length + 130);
      Sha256 a(sha_ni);
      Sha256 b(sha_ni);
      a.update(head);
      Sha256::update_pair(a, da, b, db);
      Sha256 outer_a(sha_ni);
      outer_a.update(as_bytes(a.finish()));
      Sha256 outer_b(sha_ni);
      outer_b.update(as_bytes(b.finish()));
      ASSERT_EQ(as_bytes(outer_a.finish()), reference_double(std::string(head) + std::string(da))) << length;
      ASSERT_EQ(as_bytes(outer_b.finish()), reference_double(db)) << length;
    }
  }
}

TEST(Sha256Lanes, UploadHashesMatchTheOneByOneHashes) {
  // A segment's blocks, an odd count of them (the last is hashed alone), of a block size Tahoe's
  // 128 KiB / 60 gives.
  std::vector<std::string_view> blocks;
  for (size_t i = 0; i < 7; ++i) blocks.push_back(std::string_view(bytes()).substr(i * 300, 2185 - 300 * i));
  std::vector<std::string> paired = block_hashes(blocks);
  ASSERT_EQ(paired.size(), blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_EQ(paired[i], reference_tagged("allmydata_encoded_subshare_v1", blocks[i])) << i;
    EXPECT_EQ(block_hash(blocks[i]), paired[i]) << i;
  }

  TaggedHasher file("allmydata_crypttext_v1");
  std::string whole;
  for (size_t start : {0, 1000, 1777}) {
    std::string_view segment = std::string_view(bytes()).substr(start, 1000 + start / 3);
    whole += segment;
    EXPECT_EQ(file.update_and_hash_segment(segment),
              reference_tagged("allmydata_crypttext_segment_v1", segment));
    EXPECT_EQ(crypttext_segment_hash(segment), reference_tagged("allmydata_crypttext_segment_v1", segment));
  }
  EXPECT_EQ(file.finish(), reference_tagged("allmydata_crypttext_v1", whole));
}

}  // namespace
}  // namespace perflab::share
