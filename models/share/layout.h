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
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/share/content.h"
#include "models/share/tree_sections.h"

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

// An uploaded file as its storage servers hold it, without holding its bytes: the file's content source,
// and of the n shares only what the upload computed — the hash-tree sections (on disk: they grow with the
// file), the share-hash chains, the header and the URI extension block. A share's data blocks are encoded
// from the content when read.
struct EncodedFile {
  Sizes sizes;
  Offsets offsets;
  VerifyCap cap;
  std::shared_ptr<const ContentSource> content;
  std::string header;                                 // the 0x24-byte v1 header, the same in every share
  std::shared_ptr<const TreeSections> tree_sections;  // the ciphertext tree and each share's block tree
  std::vector<std::string> share_hashes;              // by share number: its (index, hash) pairs
  std::string ueb;                                    // length field + URI extension block
  std::string crypttext_hash;                         // the UEB's tagged hash of the whole file

  uint64_t share_size() const { return offsets.uri_extension + ueb.size(); }
  // Bytes [start, start + length) of share `shnum`, short past its end: a storage server's read.
  std::string read(int shnum, uint64_t start, uint64_t length) const;
  // The same bytes appended to `out`: a server writes a data block straight into its answer.
  void append_read(int shnum, uint64_t start, uint64_t length, std::string& out) const;
  std::string block(int shnum, uint64_t segnum) const;  // its data block for the segment
  std::string share(int shnum) const;                   // the whole share file (small files, tests)
  std::vector<std::string> shares() const;
  std::string contents() const;  // the whole file (small files, tests)

 private:
  void load_segment(uint64_t segnum) const;
  void append_block(int shnum, uint64_t segnum, std::string& out) const;  // block(), appended to `out`
  mutable uint64_t cached_segnum_ = UINT64_MAX;  // the padded segment blocks were last cut or encoded from
  mutable std::string cached_segment_;
};

// The upload in one streaming pass over the content: per segment, its hash, its n blocks and their hashes;
// only the hashes are kept. `crypttext_hash`: the whole file's tagged hash, if the caller has it already
// (it depends on the bytes alone, not on k, n or the segment size); else hashed in the same pass.
Result<EncodedFile> encode_file(const std::shared_ptr<const ContentSource>& content, int k, int n,
                                uint64_t max_segment_size, std::optional<std::string> crypttext_hash = {});
Result<EncodedFile> encode_file(std::string contents, int k, int n, uint64_t max_segment_size);
// Deterministic pseudo-random contents of `size` bytes (SeededContent's bytes, held).
std::string make_contents(uint64_t size, uint64_t seed);

}  // namespace perflab::share
