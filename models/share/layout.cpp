// Share layout and the uploader (see layout.h): sizes, the v1 offsets table, the URI extension block,
// and encode_file, which splits the file into segments, erasure-codes them, hashes every block and
// segment and writes n share files.
#include "models/share/layout.h"

#include <algorithm>

#include "models/share/erasure.h"
#include "models/share/hash_tree.h"
#include "models/share/hashes.h"

namespace perflab::share {
namespace {

uint64_t div_ceil(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}
uint64_t next_multiple(uint64_t a, uint64_t b) {
  return div_ceil(a, b) * b;
}

void put_be32(std::string& out, size_t at, uint64_t value) {
  for (int i = 0; i < 4; ++i)
    out[at + static_cast<size_t>(i)] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
}

}  // namespace

uint32_t read_be32(const std::string& data, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<uint8_t>(data[at + i]);
  return value;
}

Status check_encoding(uint64_t file_size, int k, int n, uint64_t max_segment_size) {
  if (file_size == 0) return Status::Error("file_size is 0, expected at least 1 byte");
  if (k < 1) return Status::Error("k is " + std::to_string(k) + ", expected k >= 1");
  if (n < k)
    return Status::Error("k = " + std::to_string(k) + " > n = " + std::to_string(n) + ", expected k <= n");
  if (n > 256) return Status::Error("n = " + std::to_string(n) + ", expected n <= 256 (GF(2^8) code)");
  if (max_segment_size == 0) return Status::Error("segment_size is 0, expected at least 1 byte");
  Sizes sizes = calculate_sizes(file_size, k, choose_segment_size(file_size, k, max_segment_size));
  Offsets o = share_offsets(sizes, file_size, k, num_share_hashes(n));
  if (o.uri_extension >= (uint64_t{1} << 32)) {
    return Status::Error(
        "a share of this file needs the v2 layout (offsets >= 2^32), expected a smaller file");
  }
  return Status::OK();
}

uint64_t choose_segment_size(uint64_t file_size, int k, uint64_t max_segment_size) {
  return next_multiple(std::min(max_segment_size, file_size), static_cast<uint64_t>(k));
}

Sizes calculate_sizes(uint64_t file_size, int k, uint64_t segment_size) {
  Sizes s;
  auto kk = static_cast<uint64_t>(k);
  s.segment_size = segment_size;
  s.tail_segment_size = file_size % segment_size == 0 ? segment_size : file_size % segment_size;
  s.tail_segment_padded = next_multiple(s.tail_segment_size, kk);
  s.num_segments = div_ceil(file_size, segment_size);
  s.block_size = segment_size / kk;
  s.tail_block_size = s.tail_segment_padded / kk;
  return s;
}

uint64_t hash_tree_bytes(uint64_t num_segments) {
  return (2 * roundup_pow2(num_segments) - 1) * kHashSize;
}

size_t num_share_hashes(int n) {
  IncompleteHashTree tree(static_cast<size_t>(n));
  return tree.needed_hashes(0, true).size();
}

Offsets share_offsets(const Sizes& sizes, uint64_t file_size, int k, size_t share_hashes) {
  Offsets o;
  uint64_t data_size = div_ceil(file_size, static_cast<uint64_t>(k));
  uint64_t tree = hash_tree_bytes(sizes.num_segments);
  o.data = 0x24;
  o.plaintext_hash_tree = o.data + data_size;
  o.crypttext_hash_tree = o.plaintext_hash_tree + tree;
  o.block_hashes = o.crypttext_hash_tree + tree;
  o.share_hashes = o.block_hashes + tree;
  o.uri_extension = o.share_hashes + share_hashes * (2 + kHashSize);
  return o;
}

std::string pack_ueb(const Ueb& u) {
  std::map<std::string, std::string> fields = {
      {"codec_name", u.codec_name},
      {"codec_params", std::to_string(u.segment_size) + "-" + std::to_string(u.needed_shares) + "-" +
                           std::to_string(u.total_shares)},
      {"tail_codec_params",
       std::to_string(u.size % u.segment_size == 0 ? u.segment_size : u.size % u.segment_size) + "-" +
           std::to_string(u.needed_shares) + "-" + std::to_string(u.total_shares)},
      {"size", std::to_string(u.size)},
      {"segment_size", std::to_string(u.segment_size)},
      {"num_segments", std::to_string(u.num_segments)},
      {"needed_shares", std::to_string(u.needed_shares)},
      {"total_shares", std::to_string(u.total_shares)},
      {"crypttext_hash", u.crypttext_hash},
      {"crypttext_root_hash", u.crypttext_root_hash},
      {"share_root_hash", u.share_root_hash},
  };
  std::string out;
  for (const auto& [key, value] : fields) out += key + ":" + netstring(value);
  return out;
}

Result<Ueb> unpack_ueb(const std::string& data) {
  std::map<std::string, std::string> fields;
  size_t at = 0;
  while (at < data.size()) {
    size_t colon = data.find(':', at);
    size_t len_end = colon == std::string::npos ? colon : data.find(':', colon + 1);
    if (len_end == std::string::npos) return Status::Error("URI extension block: malformed entry");
    std::string key = data.substr(at, colon - at);
    uint64_t len = 0;
    for (size_t i = colon + 1; i < len_end; ++i) {
      if (data[i] < '0' || data[i] > '9') return Status::Error("URI extension block: bad length");
      len = len * 10 + static_cast<uint64_t>(data[i] - '0');
    }
    if (len_end + 1 + len >= data.size() || data[len_end + 1 + len] != ',') {
      return Status::Error("URI extension block: truncated value of " + key);
    }
    fields[key] = data.substr(len_end + 1, len);
    at = len_end + 2 + len;
  }
  auto number = [&](const std::string& key) -> uint64_t {
    auto it = fields.find(key);
    return it == fields.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
  };
  Ueb u;
  u.codec_name = fields["codec_name"];
  u.size = number("size");
  u.segment_size = number("segment_size");
  u.num_segments = number("num_segments");
  u.needed_shares = static_cast<int>(number("needed_shares"));
  u.total_shares = static_cast<int>(number("total_shares"));
  u.crypttext_hash = fields["crypttext_hash"];
  u.crypttext_root_hash = fields["crypttext_root_hash"];
  u.share_root_hash = fields["share_root_hash"];
  if (u.segment_size == 0 || u.num_segments == 0 || u.needed_shares == 0 ||
      u.crypttext_root_hash.size() != kHashSize || u.share_root_hash.size() != kHashSize) {
    return Status::Error("URI extension block: missing or invalid fields");
  }
  return u;
}

Result<Offsets> parse_offsets(const std::string& header) {
  if (header.size() < 0x24) return Status::Error("share header shorter than 0x24 bytes");
  Offsets o;
  o.data = read_be32(header, 0x0c);
  o.plaintext_hash_tree = read_be32(header, 0x10);
  o.crypttext_hash_tree = read_be32(header, 0x14);
  o.block_hashes = read_be32(header, 0x18);
  o.share_hashes = read_be32(header, 0x1c);
  o.uri_extension = read_be32(header, 0x20);
  return o;
}

Result<EncodedFile> encode_file(std::string contents, int k, int n, uint64_t max_segment_size) {
  Status ok = check_encoding(contents.size(), k, n, max_segment_size);
  if (!ok.ok()) return ok;
  EncodedFile file;
  uint64_t size = contents.size();
  file.sizes = calculate_sizes(size, k, choose_segment_size(size, k, max_segment_size));
  const Sizes& s = file.sizes;
  file.offsets = share_offsets(s, size, k, num_share_hashes(n));
  const Offsets& o = file.offsets;
  ErasureCode code(k, n);
  auto nn = static_cast<size_t>(n);

  std::vector<std::string> shares(nn, std::string(o.uri_extension, '\0'));
  std::vector<std::vector<std::string>> block_leaves(nn);
  std::vector<std::string> segment_leaves;
  for (uint64_t seg = 0; seg < s.num_segments; ++seg) {
    uint64_t start = seg * s.segment_size;
    std::string segment = contents.substr(start, std::min(s.segment_size, size - start));
    segment_leaves.push_back(crypttext_segment_hash(segment));
    bool tail = seg + 1 == s.num_segments;
    segment.resize(tail ? s.tail_segment_padded : s.segment_size, '\0');
    auto blocks = code.encode(segment);
    for (size_t sh = 0; sh < nn; ++sh) {
      shares[sh].replace(o.data + seg * s.block_size, blocks[sh].size(), blocks[sh]);
      block_leaves[sh].push_back(block_hash(blocks[sh]));
    }
  }
  HashTree crypttext_tree(segment_leaves);
  std::vector<std::string> block_roots;
  std::vector<HashTree> block_trees;
  for (size_t sh = 0; sh < nn; ++sh) {
    block_trees.emplace_back(block_leaves[sh]);
    block_roots.push_back(block_trees.back()[0]);
  }
  HashTree share_tree(block_roots);

  Ueb ueb;
  ueb.size = size;
  ueb.segment_size = s.segment_size;
  ueb.num_segments = s.num_segments;
  ueb.needed_shares = k;
  ueb.total_shares = n;
  ueb.crypttext_hash = tagged_hash("allmydata_crypttext_v1", contents);
  ueb.crypttext_root_hash = crypttext_tree[0];
  ueb.share_root_hash = share_tree[0];
  std::string ueb_data = pack_ueb(ueb);
  file.cap = VerifyCap{size, k, n, uri_extension_hash(ueb_data)};

  for (size_t sh = 0; sh < nn; ++sh) {
    std::string& share = shares[sh];
    std::string header(0x24, '\0');
    const uint64_t fields[] = {1,
                               s.block_size,
                               share_offsets(s, size, k, 0).plaintext_hash_tree - o.data,
                               o.data,
                               o.plaintext_hash_tree,
                               o.crypttext_hash_tree,
                               o.block_hashes,
                               o.share_hashes,
                               o.uri_extension};
    for (size_t i = 0; i < 9; ++i) put_be32(header, 4 * i, fields[i]);
    share.replace(0, header.size(), header);
    for (size_t i = 0; i < crypttext_tree.size(); ++i) {
      share.replace(o.crypttext_hash_tree + i * kHashSize, kHashSize, crypttext_tree[i]);
      share.replace(o.block_hashes + i * kHashSize, kHashSize, block_trees[sh][i]);
    }
    uint64_t at = o.share_hashes;
    for (size_t node : share_tree.needed_hashes(sh, true)) {
      share[at] = static_cast<char>(node >> 8);
      share[at + 1] = static_cast<char>(node & 0xff);
      share.replace(at + 2, kHashSize, share_tree[node]);
      at += 2 + kHashSize;
    }
    std::string length(4, '\0');
    put_be32(length, 0, ueb_data.size());
    share += length + ueb_data;
  }
  file.shares = std::move(shares);
  file.contents = std::move(contents);
  return file;
}

std::string make_contents(uint64_t size, uint64_t seed) {
  std::string out(size, '\0');
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  for (uint64_t i = 0; i < size; i += 8) {
    x += 0x9e3779b97f4a7c15ULL;  // splitmix64
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    for (uint64_t b = 0; b < 8 && i + b < size; ++b) out[i + b] = static_cast<char>(z >> (8 * b));
  }
  return out;
}

}  // namespace perflab::share
