// The immutable share layout (allmydata/immutable/layout.py, v1) and an uploader that builds real shares.
//
//   0x00 version=1 | block_size | data_size | offsets: data, plaintext_hash_tree (unused),
//        crypttext_hash_tree, block_hashes, share_hashes, uri_extension   (4-byte big-endian fields)
//   0x24 data blocks | plaintext tree (zeros) | ciphertext hash tree | block hash tree   (2P-1 nodes of 32 B)
//        | share hashes: (2-byte node index, 32-byte hash) pairs | UEB: 4-byte length + netstring fields
// Sizes follow DownloadNode._calculate_sizes (downloader/node.py): segment_size is a multiple of k, the
// tail segment is padded up to a multiple of k, block = segment / k.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab::share {

constexpr uint64_t kGuessedSegmentSize = uint64_t{128} * 1024;  // DownloadNode.guessed_segment_size

// What a read cap tells the downloader before it reads anything.
struct VerifyCap {
  uint64_t size = 0;
  int needed_shares = 0;  // k
  int total_shares = 0;   // N
  std::string ueb_hash;   // tagged hash of the URI extension block
};

struct Sizes {
  uint64_t segment_size = 0;
  uint64_t num_segments = 0;
  uint64_t block_size = 0;
  uint64_t tail_segment_size = 0;
  uint64_t tail_segment_padded = 0;
  uint64_t tail_block_size = 0;
};

struct Offsets {
  uint64_t data = 0;
  uint64_t plaintext_hash_tree = 0;
  uint64_t crypttext_hash_tree = 0;
  uint64_t block_hashes = 0;
  uint64_t share_hashes = 0;
  uint64_t uri_extension = 0;
};

// Rejects what no upload could produce: zero sizes, k = 0, k > n, n > 256.
Status check_encoding(uint64_t file_size, int k, int n, uint64_t max_segment_size);
// The uploader's segment size: min(max_segment_size, file_size) rounded up to a multiple of k.
uint64_t choose_segment_size(uint64_t file_size, int k, uint64_t max_segment_size);
Sizes calculate_sizes(uint64_t file_size, int k, uint64_t segment_size);
uint64_t hash_tree_bytes(uint64_t num_segments);  // (2P-1) * 32
// Offsets of a v1 share holding these sizes; `num_share_hashes` pairs of share hashes.
Offsets share_offsets(const Sizes& sizes, uint64_t file_size, int k, size_t num_share_hashes);
size_t num_share_hashes(int n);  // sibling chain + leaf in a tree of n leaves

// The URI extension block's fields (sorted "key:netstring," entries, as uri.pack_extension writes).
struct Ueb {
  std::string codec_name = "crs";
  uint64_t size = 0;
  uint64_t segment_size = 0;
  uint64_t num_segments = 0;
  int needed_shares = 0;
  int total_shares = 0;
  std::string crypttext_hash;
  std::string crypttext_root_hash;
  std::string share_root_hash;
};
std::string pack_ueb(const Ueb& ueb);
Result<Ueb> unpack_ueb(const std::string& data);

// The offsets table as read from a share's first 0x24 bytes.
Result<Offsets> parse_offsets(const std::string& header);

uint32_t read_be32(const std::string& data, size_t at);

// An uploaded file: its contents, the n share files a storage server would hold, and the read cap.
struct EncodedFile {
  std::string contents;
  Sizes sizes;
  Offsets offsets;
  VerifyCap cap;
  std::vector<std::string> shares;  // by share number
};
Result<EncodedFile> encode_file(std::string contents, int k, int n, uint64_t max_segment_size);
// Deterministic pseudo-random contents of `size` bytes (the workload's file).
std::string make_contents(uint64_t size, uint64_t seed);

}  // namespace perflab::share
