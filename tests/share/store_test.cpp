// The streamed shares (models/share/content.h, EncodedFile in layout.h): content sources read piecewise give
// the bytes of one sequential pass, and a share produced on demand — blocks encoded when read, hash
// sections from the upload's one pass — is the share the held encoder wrote: every block equals the
// segment's full encoding, every tree section the tree of its leaves, any read the slice of the whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <tuple>

#include "models/share/content.h"
#include "models/share/erasure.h"
#include "models/share/hash_tree.h"
#include "models/share/hashes.h"
#include "models/share/layout.h"
#include "models/share/local_download.h"

namespace perflab::share {
namespace {

// The generator as a sequential splitmix64 (the original make_contents loop).
std::string sequential_contents(uint64_t size, uint64_t seed) {
  std::string out(size, '\0');
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  for (uint64_t i = 0; i < size; i += 8) {
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    for (uint64_t b = 0; b < 8 && i + b < size; ++b) out[i + b] = static_cast<char>(z >> (8 * b));
  }
  return out;
}

TEST(Content, SeededReadsAnywhereEqualOneSequentialPass) {
  const uint64_t size = 100003;
  const std::string whole = sequential_contents(size, 7);
  SeededContent content(size, 7);
  EXPECT_EQ(content.read(0, size), whole);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 500; ++i) {
    uint64_t start = rng() % size;
    uint64_t length = rng() % (size - start + 1);
    ASSERT_EQ(content.read(start, length), whole.substr(start, length)) << start << "+" << length;
  }
  EXPECT_NE(SeededContent(64, 8).read(0, 64), SeededContent(64, 7).read(0, 64));
}

TEST(Content, FileIsReadInPiecesAndBadPathsAreRefused) {
  std::string path = ::testing::TempDir() + "share_content_test.bin";
  const std::string bytes = sequential_contents(5000, 3);
  std::ofstream(path, std::ios::binary) << bytes;
  auto file = FileContent::open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ((*file)->size(), 5000u);
  EXPECT_EQ((*file)->read(4000, 1000), bytes.substr(4000));
  auto encoded = encode_file(*file, 3, 10, 1024);
  ASSERT_TRUE(encoded.ok());
  EXPECT_EQ(encoded->contents(), bytes);
  std::remove(path.c_str());
  auto missing = FileContent::open(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(path), std::string::npos);
}

struct Case {
  uint64_t size;
  int k;
  int n;
  uint64_t segment;
};

TEST(StreamedShares, EqualTheSharesOfTheFullEncoding) {
  for (const Case& c : {Case{1000 * 1024 + 7, 3, 10, 128 * 1024}, Case{77777, 5, 8, 4096},
                        Case{4096 * 6, 4, 4, 4096}, Case{10, 3, 7, 128 * 1024},
                        Case{1200 * 513 + 5, 3, 5, 513}}) {  // leaves written to disk in several batches
    const std::string contents = sequential_contents(c.size, c.size);
    auto streamed = encode_file(std::make_shared<SeededContent>(c.size, c.size), c.k, c.n, c.segment);
    ASSERT_TRUE(streamed.ok()) << streamed.status().message();
    const EncodedFile& file = *streamed;
    const Sizes& s = file.sizes;
    EXPECT_EQ(file.contents(), contents);
    EXPECT_EQ(file.crypttext_hash, tagged_hash("allmydata_crypttext_v1", contents));
    ErasureCode code(c.k, c.n);
    std::vector<std::vector<std::string>> leaves(static_cast<size_t>(c.n));
    std::vector<std::string> segment_leaves;
    for (uint64_t seg = 0; seg < s.num_segments; ++seg) {
      std::string segment = contents.substr(seg * s.segment_size, s.segment_size);
      segment_leaves.push_back(crypttext_segment_hash(segment));
      segment.resize(seg + 1 == s.num_segments ? s.tail_segment_padded : s.segment_size, '\0');
      auto blocks = code.encode(segment);
      for (int sh = 0; sh < c.n; ++sh) {
        ASSERT_EQ(file.block(sh, seg), blocks[static_cast<size_t>(sh)]) << "share " << sh << " seg " << seg;
        leaves[static_cast<size_t>(sh)].push_back(block_hash(blocks[static_cast<size_t>(sh)]));
      }
    }
    const std::string crypttext_tree = HashTree(segment_leaves).bytes();
    std::mt19937_64 rng(c.size);
    for (int sh = 0; sh < c.n; ++sh) {
      const std::string share = file.share(sh);
      ASSERT_EQ(share.size(), file.share_size());
      EXPECT_EQ(share.substr(0, 0x24), file.header);
      EXPECT_EQ(share.substr(file.offsets.crypttext_hash_tree,
                             file.offsets.block_hashes - file.offsets.crypttext_hash_tree),
                crypttext_tree);
      EXPECT_EQ(
          share.substr(file.offsets.block_hashes, file.offsets.share_hashes - file.offsets.block_hashes),
          HashTree(leaves[static_cast<size_t>(sh)]).bytes());
      EXPECT_EQ(share.substr(file.offsets.uri_extension), file.ueb);
      for (int i = 0; i < 200; ++i) {
        uint64_t start = rng() % (share.size() + 100);
        uint64_t length = rng() % 3000;
        ASSERT_EQ(file.read(sh, start, length), start < share.size() ? share.substr(start, length) : "")
            << "share " << sh << " [" << start << "+" << length << ")";
      }
    }
  }
}

// The whole file's hash handed to the uploader (the share study's points that differ in k, n or segment
// size share one) gives the shares it would have computed itself.
// The bytes a content source was asked for, counted.
class CountingContent : public ContentSource {
 public:
  explicit CountingContent(std::shared_ptr<const ContentSource> inner) : inner_(std::move(inner)) {}
  uint64_t size() const override { return inner_->size(); }
  void read(uint64_t offset, uint64_t length, char* out) const override {
    bytes_read += length;
    inner_->read(offset, length, out);
  }
  using ContentSource::read;
  mutable uint64_t bytes_read = 0;

 private:
  std::shared_ptr<const ContentSource> inner_;
};

// A storage server reads its own block, not its segment: a systematic block (share < k) costs the content
// its block's bytes (fewer in the tail, past the end of the file), a parity block the whole segment, read
// once for the parity blocks of that segment.
TEST(StreamedShares, ASystematicBlockReadsOnlyItsOwnBytes) {
  const uint64_t size = 300 * 1024 + 5;
  auto counting = std::make_shared<CountingContent>(std::make_shared<SeededContent>(size, 7));
  auto encoded = encode_file(counting, 3, 10, 128 * 1024);
  ASSERT_TRUE(encoded.ok()) << encoded.status().message();
  const EncodedFile& file = *encoded;
  const uint64_t block = file.sizes.block_size;
  auto read_block = [&](int shnum, uint64_t segnum) {
    counting->bytes_read = 0;
    const std::string bytes = file.block(shnum, segnum);
    return counting->bytes_read;
  };
  EXPECT_EQ(read_block(0, 0), block);
  EXPECT_EQ(read_block(2, 1), block);
  EXPECT_EQ(read_block(3, 1), file.sizes.segment_size);  // a parity block: the whole segment, once
  EXPECT_EQ(read_block(4, 1), 0u);                       // the same segment's next parity block
  const uint64_t tail = file.sizes.num_segments - 1;
  const uint64_t tail_start = tail * file.sizes.segment_size;
  const uint64_t tail_block = file.sizes.tail_segment_padded / 3;
  EXPECT_EQ(read_block(0, tail), std::min(tail_block, size - tail_start));
  EXPECT_EQ(read_block(2, tail), size - tail_start - 2 * tail_block);  // cut short by the end of the file
}

TEST(StreamedShares, AGivenCrypttextHashGivesTheSameShares) {
  auto content = std::make_shared<SeededContent>(300 * 1024 + 5, 1);
  auto hashed = encode_file(content, 3, 10, 128 * 1024);
  ASSERT_TRUE(hashed.ok());
  for (auto [k, n, segment] : {std::tuple{3, 10, 128 * 1024}, {5, 8, 64 * 1024}}) {
    auto own = encode_file(content, k, n, segment);
    auto given = encode_file(content, k, n, segment, hashed->crypttext_hash);
    ASSERT_TRUE(own.ok() && given.ok());
    EXPECT_EQ(given->crypttext_hash, own->crypttext_hash);
    EXPECT_EQ(given->cap.ueb_hash, own->cap.ueb_hash);
    EXPECT_EQ(given->shares(), own->shares());
  }
}

// A real file through the whole model: encoded from disk piecewise (FileContent), its crypttext hash the
// file's, downloaded, and the bytes that come back equal the file's own.
TEST(FileContentDownload, ARealFileComesBackByteForByte) {
  const std::string path =
      std::string(PERFLAB_SOURCE_DIR) + "/scenarios/prefetch/data/jgit-clone.classload.log";
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 128U * 1024) << "want a file of several segments";
  auto content = FileContent::open(path);
  ASSERT_TRUE(content.ok()) << content.status().message();
  auto file = encode_file(*content, 3, 10, 128 * 1024);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->cap.size, bytes.size());
  EXPECT_EQ(file->crypttext_hash, tagged_hash("allmydata_crypttext_v1", bytes));
  LocalDownloadStats got = run_local_download(*file, file->shares(), {});
  ASSERT_TRUE(got.result.done) << got.result.error;
  EXPECT_EQ(got.contents, bytes);
}

}  // namespace
}  // namespace perflab::share
