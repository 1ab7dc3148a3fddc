// Tahoe's tagged SHA-256d hashes (allmydata/util/hashutil.py) on OpenSSL libcrypto: every hash in a share
// (block hashes, the block/ciphertext/share hash trees, the URI extension block hash) is one of these.
//   tagged_hash(tag, data)   = SHA256(SHA256(netstring(tag) + data))
//   tagged_pair_hash(tag, a, b) = tagged_hash(tag, netstring(a) + netstring(b))
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/share/sha256_lanes.h"

namespace perflab::share {

constexpr size_t kHashSize = 32;

std::string netstring(std::string_view data);  // "<len>:<data>,"
std::string sha256d(std::string_view data);
std::string tagged_hash(std::string_view tag, std::string_view data);
std::string tagged_pair_hash(std::string_view tag, std::string_view a, std::string_view b);

std::string block_hash(std::string_view block);            // leaf of a block hash tree
std::string crypttext_segment_hash(std::string_view seg);  // leaf of the ciphertext hash tree
std::string uri_extension_hash(std::string_view ueb);      // what the read cap carries
std::string merkle_pair_hash(std::string_view left, std::string_view right);
std::string empty_leaf_hash(size_t index);

// tagged_hash(tag, d) of each d, hashed two at a time (sha256_lanes.h): the upload's n block hashes of a
// segment are independent.
std::vector<std::string> tagged_hashes(std::string_view tag, const std::vector<std::string_view>& data);
std::vector<std::string> block_hashes(const std::vector<std::string_view>& blocks);

// tagged_hash(tag, data) of data fed in pieces (a whole file, segment by segment).
class TaggedHasher {
 public:
  explicit TaggedHasher(std::string_view tag);
  void update(std::string_view data);
  // update(segment), and returns crypttext_segment_hash(segment): the upload hashes each segment for the
  // whole file and for itself, the two streams side by side.
  std::string update_and_hash_segment(std::string_view segment);
  std::string finish();  // once

 private:
  Sha256 inner_;
};

}  // namespace perflab::share
