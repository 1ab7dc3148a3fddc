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

Result<EncodedFile> encode_file(const std::shared_ptr<const ContentSource>& content, int k, int n,
                                uint64_t max_segment_size, std::optional<std::string> crypttext_hash) {
  const uint64_t size = content->size();
  Status ok = check_encoding(size, k, n, max_segment_size);
  if (!ok.ok()) return ok;
  EncodedFile file;
  file.content = content;
  file.sizes = calculate_sizes(size, k, choose_segment_size(size, k, max_segment_size));
  const Sizes& s = file.sizes;
  file.offsets = share_offsets(s, size, k, num_share_hashes(n));
  const Offsets& o = file.offsets;
  ErasureCode code(k, n);
  auto nn = static_cast<size_t>(n);

  auto created = TreeSections::create(s.num_segments, n);
  if (!created.ok()) return created.status();
  TreeSections& sections = **created;
  // The leaves of the n + 1 trees (0: ciphertext, 1 + shnum: its blocks) wait here and go to their tree's
  // leaf level on disk kLeavesPerWrite segments at a time: memory does not grow with the file.
  constexpr uint64_t kLeavesPerWrite = 512;
  const uint64_t leaf_level = (roundup_pow2(s.num_segments) - 1) * kHashSize;
  auto tree_of = [](size_t i) { return static_cast<int>(i) - 1; };
  std::vector<std::string> leaves(nn + 1);
  uint64_t first_unwritten = 0;
  auto write_leaves = [&](uint64_t end_segment) {
    for (size_t i = 0; i <= nn; ++i) {
      sections.write(tree_of(i), leaf_level + first_unwritten * kHashSize, leaves[i]);
      leaves[i].clear();
    }
    first_unwritten = end_segment;
  };

  std::optional<TaggedHasher> file_hash;
  if (!crypttext_hash) file_hash.emplace("allmydata_crypttext_v1");
  std::string segment(s.segment_size, '\0');
  std::string parity((nn - static_cast<size_t>(k)) * s.block_size, '\0');  // blocks k .. n-1 of a segment
  std::vector<std::string_view> blocks(nn);
  for (uint64_t seg = 0; seg < s.num_segments; ++seg) {
    uint64_t start = seg * s.segment_size;
    uint64_t length = std::min(s.segment_size, size - start);
    content->read(start, length, segment.data());
    std::string_view plain(segment.data(), length);
    leaves[0] += file_hash ? file_hash->update_and_hash_segment(plain) : crypttext_segment_hash(plain);
    uint64_t padded = seg + 1 == s.num_segments ? s.tail_segment_padded : s.segment_size;
    std::fill(segment.begin() + static_cast<std::ptrdiff_t>(length), segment.end(), '\0');
    uint64_t block_size = padded / static_cast<uint64_t>(k);
    for (size_t sh = 0; sh < nn; ++sh) {
      if (sh < static_cast<size_t>(k)) {
        blocks[sh] = std::string_view(segment).substr(sh * block_size, block_size);
      } else {
        char* out = parity.data() + (sh - static_cast<size_t>(k)) * block_size;
        code.encode_block(segment.data(), padded, static_cast<int>(sh), out);
        blocks[sh] = std::string_view(out, block_size);
      }
    }
    std::vector<std::string> hashes = block_hashes(blocks);  // two at a time
    for (size_t sh = 0; sh < nn; ++sh) leaves[1 + sh] += hashes[sh];
    if (seg + 1 - first_unwritten == kLeavesPerWrite || seg + 1 == s.num_segments) write_leaves(seg + 1);
  }
  // Each tree in turn, from its leaves: one tree in memory at a time.
  std::vector<std::string> roots;
  for (size_t i = 0; i <= nn; ++i) {
    HashTree built(sections.read_uncached(tree_of(i), leaf_level, s.num_segments * kHashSize));
    roots.emplace_back(built[0]);
    sections.write(tree_of(i), 0, built.bytes());
  }
  HashTree share_tree(std::vector<std::string>(roots.begin() + 1, roots.end()));

  Ueb ueb;
  ueb.size = size;
  ueb.segment_size = s.segment_size;
  ueb.num_segments = s.num_segments;
  ueb.needed_shares = k;
  ueb.total_shares = n;
  ueb.crypttext_hash = file_hash ? file_hash->finish() : std::move(*crypttext_hash);
  ueb.crypttext_root_hash = roots[0];
  ueb.share_root_hash = std::string(share_tree[0]);
  std::string ueb_data = pack_ueb(ueb);
  file.cap = VerifyCap{size, k, n, uri_extension_hash(ueb_data)};
  file.crypttext_hash = ueb.crypttext_hash;
  file.tree_sections = std::move(created).value();

  file.header.assign(0x24, '\0');
  const uint64_t fields[] = {1,
                             s.block_size,
                             share_offsets(s, size, k, 0).plaintext_hash_tree - o.data,
                             o.data,
                             o.plaintext_hash_tree,
                             o.crypttext_hash_tree,
                             o.block_hashes,
                             o.share_hashes,
                             o.uri_extension};
  for (size_t i = 0; i < 9; ++i) put_be32(file.header, 4 * i, fields[i]);
  for (size_t sh = 0; sh < nn; ++sh) {
    std::string pairs;
    for (size_t node : share_tree.needed_hashes(sh, true)) {
      pairs += static_cast<char>(node >> 8);
      pairs += static_cast<char>(node & 0xff);
      pairs += share_tree[node];
    }
    file.share_hashes.push_back(std::move(pairs));
  }
  file.ueb.assign(4, '\0');
  put_be32(file.ueb, 0, ueb_data.size());
  file.ueb += ueb_data;
  return file;
}

Result<EncodedFile> encode_file(std::string contents, int k, int n, uint64_t max_segment_size) {
  return encode_file(std::make_shared<StringContent>(std::move(contents)), k, n, max_segment_size);
}

void EncodedFile::load_segment(uint64_t segnum) const {
  if (cached_segnum_ == segnum) return;
  bool tail = segnum + 1 == sizes.num_segments;
  uint64_t start = segnum * sizes.segment_size;
  uint64_t length = std::min(sizes.segment_size, cap.size - start);
  cached_segment_.resize(tail ? sizes.tail_segment_padded : sizes.segment_size);
  content->read(start, length, cached_segment_.data());
  std::fill(cached_segment_.begin() + static_cast<std::ptrdiff_t>(length), cached_segment_.end(), '\0');
  cached_segnum_ = segnum;
}

std::string EncodedFile::block(int shnum, uint64_t segnum) const {
  std::string out;
  append_block(shnum, segnum, out);
  return out;
}

void EncodedFile::append_block(int shnum, uint64_t segnum, std::string& out) const {
  const bool tail = segnum + 1 == sizes.num_segments;
  const uint64_t padded = tail ? sizes.tail_segment_padded : sizes.segment_size;
  const uint64_t block_size = padded / static_cast<uint64_t>(cap.needed_shares);
  const size_t filled = out.size();
  if (shnum < cap.needed_shares) {
    // A systematic block is a slice of its segment (zeros past the end of the file), read on its own: a
    // storage server reads only its block, so a server process does not read the whole segment for it.
    const uint64_t start = segnum * sizes.segment_size + static_cast<uint64_t>(shnum) * block_size;
    const uint64_t present = start < cap.size ? std::min(block_size, cap.size - start) : 0;
    out.resize(filled + block_size, '\0');
    if (present > 0) content->read(start, present, out.data() + filled);
    return;
  }
  // A parity block is encoded from the whole segment, which the servers of one segment read once between
  // them (in one process).
  load_segment(segnum);
  out.resize(filled + block_size);
  ErasureCode(cap.needed_shares, cap.total_shares)
      .encode_block(cached_segment_.data(), cached_segment_.size(), shnum, out.data() + filled);
}

std::string EncodedFile::read(int shnum, uint64_t start, uint64_t length) const {
  std::string out;
  append_read(shnum, start, length, out);
  return out;
}

void EncodedFile::append_read(int shnum, uint64_t start, uint64_t length, std::string& out) const {
  const uint64_t end = std::min(start + length, share_size());
  if (start >= end) return;
  const Offsets& o = offsets;
  if (start >= o.data && end <= o.plaintext_hash_tree) {
    // One whole data block, as the downloader asks for it: cut or encoded from its segment into `out`.
    uint64_t segnum = (start - o.data) / sizes.block_size;
    bool tail = segnum + 1 == sizes.num_segments;
    if (start == o.data + segnum * sizes.block_size &&
        end - start == (tail ? sizes.tail_block_size : sizes.block_size)) {
      return append_block(shnum, segnum, out);
    }
  }
  out.reserve(out.size() + (end - start));
  const auto sh = static_cast<size_t>(shnum);
  uint64_t at = start;
  // Appends the part of [at, end) that falls in a section starting at `offset`.
  auto section = [&](std::string_view bytes, uint64_t offset) {
    uint64_t take = std::min<uint64_t>(end, offset + bytes.size()) - at;
    out.append(bytes.substr(at - offset, take));
    at += take;
  };
  while (at < end) {
    if (at < o.data) {
      section(header, 0);
    } else if (at < o.plaintext_hash_tree) {
      uint64_t segnum = (at - o.data) / sizes.block_size;
      section(block(shnum, segnum), o.data + segnum * sizes.block_size);
    } else if (at < o.crypttext_hash_tree) {
      uint64_t take = std::min(end, o.crypttext_hash_tree) - at;
      out.append(take, '\0');
      at += take;
    } else if (at < o.share_hashes) {
      const bool crypttext = at < o.block_hashes;
      const uint64_t offset = crypttext ? o.crypttext_hash_tree : o.block_hashes;
      const uint64_t take = std::min(end, crypttext ? o.block_hashes : o.share_hashes) - at;
      const size_t filled = out.size();
      out.resize(filled + take);
      tree_sections->read(crypttext ? TreeSections::kCrypttextTree : shnum, at - offset, take,
                          out.data() + filled);
      at += take;
    } else if (at < o.uri_extension) {
      section(share_hashes[sh], o.share_hashes);
    } else {
      section(ueb, o.uri_extension);
    }
  }
}

std::string EncodedFile::share(int shnum) const {
  return read(shnum, 0, share_size());
}

std::vector<std::string> EncodedFile::shares() const {
  std::vector<std::string> all;
  all.reserve(static_cast<size_t>(cap.total_shares));
  for (int sh = 0; sh < cap.total_shares; ++sh) all.push_back(share(sh));
  return all;
}

std::string EncodedFile::contents() const {
  return content->read(0, cap.size);
}

std::string make_contents(uint64_t size, uint64_t seed) {
  return SeededContent(size, seed).read(0, size);
}

}  // namespace perflab::share
