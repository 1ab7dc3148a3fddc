// The share model end to end, in process (models/share/local_download.h): the hash-node rule of the study
// notes on real shares, the loop counts the notes derive for the ticket's 12 MiB download, the coalesced
// flag never losing a wake-up, corruption and short reads, identical contents under every policy.
#include <gtest/gtest.h>

#include "models/share/erasure.h"
#include "models/share/hash_tree.h"
#include "models/share/hashes.h"
#include "models/share/layout.h"
#include "models/share/local_download.h"

namespace perflab::share {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

EncodedFile encode(uint64_t size, int k, int n, uint64_t segment) {
  auto file = encode_file(make_contents(size, size), k, n, segment);
  EXPECT_TRUE(file.ok()) << file.status().message();
  return std::move(file).value();
}

size_t log2_of(size_t p) {
  size_t l = 0;
  while ((size_t{1} << l) < p) ++l;
  return l;
}

size_t trailing_zeros(uint64_t s) {
  return static_cast<size_t>(__builtin_ctzll(s));
}

// The rule: segment 0 -> L+1 nodes, odd segment -> 0, even s > 0 -> 1 + v2(s); checked on the real block
// hash tree of share 0, reading the nodes from the share bytes, for sizes that are and are not multiples
// of the segment size.
TEST(HashNodes, PerSegmentCountsFollowTheRule) {
  for (uint64_t size : {12 * kMiB, 1000 * kKiB + 7, 128 * kKiB * 5, 128 * kKiB * 17 + 1, 300 * kKiB}) {
    EncodedFile file = encode(size, 3, 10, 128 * kKiB);
    const Sizes& s = file.sizes;
    const std::string share = file.share(0);
    HashTree full = [&] {
      std::vector<std::string> leaves;
      for (uint64_t seg = 0; seg < s.num_segments; ++seg) {
        uint64_t length = seg + 1 == s.num_segments ? s.tail_block_size : s.block_size;
        leaves.push_back(block_hash(share.substr(file.offsets.data + seg * s.block_size, length)));
      }
      return HashTree(leaves);
    }();
    IncompleteHashTree tree(s.num_segments);
    ASSERT_TRUE(tree.set_hashes({{0, full[0]}}).ok());
    size_t l = log2_of(roundup_pow2(s.num_segments));
    for (uint64_t seg = 0; seg < s.num_segments; ++seg) {
      auto needed = tree.needed_hashes(seg, true);
      size_t expected = seg == 0 ? l + 1 : (seg % 2 == 1 ? 0 : 1 + trailing_zeros(seg));
      ASSERT_EQ(needed.size(), expected) << "size " << size << " segment " << seg;
      std::map<size_t, std::string> hashes;
      for (size_t node : needed) {
        hashes[node] = share.substr(file.offsets.block_hashes + node * kHashSize, kHashSize);
      }
      ASSERT_TRUE(tree.set_hashes(hashes).ok());
    }
  }
}

TEST(HashTree, IncompleteTreeRejectsABadHashAndForgetsTheBatch) {
  std::vector<std::string> leaves;
  leaves.reserve(5);
  for (int i = 0; i < 5; ++i) leaves.push_back(block_hash(std::to_string(i)));
  HashTree full(leaves);
  IncompleteHashTree tree(5);
  ASSERT_TRUE(tree.set_hashes({{0, full[0]}}).ok());
  EXPECT_EQ(tree.needed_hashes(2, false), (std::vector<size_t>{2, 3, 10}));  // P = 8, leaf 2 is node 9
  std::map<size_t, std::string> chain;
  for (size_t node : tree.needed_hashes(2, true)) chain[node] = full[node];
  std::map<size_t, std::string> bad = chain;
  bad[10][0] ^= 1;
  EXPECT_FALSE(tree.set_hashes(bad).ok());
  EXPECT_EQ(tree.last_failure(), IncompleteHashTree::Failure::kBadHash);
  EXPECT_FALSE(tree.has(10));
  EXPECT_TRUE(tree.set_hashes(chain).ok());
  EXPECT_TRUE(tree.has(4));  // a parent computed and stored
  EXPECT_TRUE(tree.set_hashes({}, {{2, leaves[2]}}).ok());
  EXPECT_FALSE(tree.set_hashes({}, {{2, leaves[3]}}).ok());
  IncompleteHashTree empty(5);
  ASSERT_TRUE(empty.set_hashes({{0, full[0]}}).ok());
  EXPECT_FALSE(empty.set_hashes({{11, full[11]}}).ok());
  EXPECT_EQ(empty.last_failure(), IncompleteHashTree::Failure::kNotEnoughHashes);
}

TEST(HashTree, IncompleteTreeHoldsNodesOf32BytesOnly) {
  std::vector<std::string> leaves;
  for (int i = 0; i < 4; ++i) leaves.push_back(block_hash(std::to_string(i)));
  HashTree full(leaves);
  IncompleteHashTree tree(4);
  EXPECT_FALSE(tree.node(0).has_value());
  EXPECT_FALSE(tree.set_hashes({{0, full[0].substr(0, 31)}}).ok());
  EXPECT_EQ(tree.last_failure(), IncompleteHashTree::Failure::kBadHash);
  EXPECT_FALSE(tree.has(0));
  ASSERT_TRUE(tree.set_hashes({{0, full[0]}}).ok());
  EXPECT_EQ(tree.node(0), std::optional<std::string_view>(full.view(0)));
  // Both children of a node in one batch: the parent is computed once and checked against the root.
  ASSERT_TRUE(tree.set_hashes({{1, full[1]}, {2, full[2]}}).ok());
  EXPECT_TRUE(tree.set_hashes({}, {{0, leaves[0]}, {1, leaves[1]}}).ok());
  EXPECT_EQ(tree.leaf(1), std::optional<std::string_view>(full.view(tree.first_leaf_num() + 1)));
  EXPECT_EQ(tree.needed_hashes(3, true), (std::vector<size_t>{5, 6}));
}

TEST(Erasure, AnyKSharesDecode) {
  ErasureCode code(3, 6);
  std::string segment = make_contents(uint64_t{3} * 1000, 5);
  auto blocks = code.encode(segment);
  for (int a = 0; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b) {
      for (int c = b + 1; c < 6; ++c) {
        auto decoded = code.decode({{a, blocks[static_cast<size_t>(a)]},
                                    {b, blocks[static_cast<size_t>(b)]},
                                    {c, blocks[static_cast<size_t>(c)]}});
        ASSERT_TRUE(decoded.ok());
        EXPECT_EQ(*decoded, segment);
      }
    }
  }
}

// zfec's work (fec.c fec_decode): a primary block given is passed through, each missing one rebuilt from
// the k blocks; the download reports it per segment, by the shares the fetcher took (by round-trip time).
TEST(Decode, WorkIsTheBlocksRebuiltFromParity) {
  EncodedFile file = encode(3 * 128 * kKiB, 3, 10, 128 * kKiB);
  const std::vector<std::string> shares = file.shares();
  LocalDownloadStats primary = run_local_download(file, shares, {});
  LocalDownloadOptions parity_first;
  parity_first.dyhb_rtt = {9, 8, 1, 7, 6, 5, 4, 3, 2, 0};  // fastest: shares 9, 2, 8
  LocalDownloadStats mixed = run_local_download(file, shares, parity_first);
  for (const LocalDownloadStats* stats : {&primary, &mixed}) {
    ASSERT_TRUE(stats->result.done) << stats->result.error;
    EXPECT_EQ(stats->contents, file.contents());
    ASSERT_EQ(stats->decodes.size(), 3u);
  }
  const DecodeWork& none = primary.decodes[0];
  EXPECT_EQ(none.rebuilt_blocks, 0);
  EXPECT_EQ(none.multiplied_bytes(), 0u);
  EXPECT_EQ(none.segment_bytes, 3 * file.sizes.block_size);  // the segment size, rounded up to k
  const DecodeWork& two = mixed.decodes[0];
  EXPECT_EQ(two.rebuilt_blocks, 2);  // slices 0 and 1 rebuilt from shares 2, 8, 9
  EXPECT_EQ(two.multiplied_bytes(), 2u * 3u * file.sizes.block_size);
}

TEST(Layout, TheNotesSizesFor12MiB) {
  EncodedFile file = encode(12 * kMiB, 3, 10, 128 * kKiB);
  EXPECT_EQ(file.sizes.segment_size, 131073u);
  EXPECT_EQ(file.sizes.block_size, 43691u);
  EXPECT_EQ(file.sizes.num_segments, 96u);
  EXPECT_EQ(file.offsets.data, 0x24u);
  EXPECT_EQ(file.offsets.uri_extension - file.offsets.share_hashes, 5 * 34u);  // N = 10: 5 pairs
  EXPECT_EQ(hash_tree_bytes(96), 255 * 32u);
  uint64_t ueb_length = read_be32(file.shares()[0], file.offsets.uri_extension);
  EXPECT_GT(ueb_length, 250u);
  EXPECT_LT(ueb_length, 400u);
}

TEST(Layout, BadParametersAreRejected) {
  EXPECT_FALSE(check_encoding(0, 3, 10, 128 * kKiB).ok());
  EXPECT_FALSE(check_encoding(100, 0, 10, 128 * kKiB).ok());
  EXPECT_FALSE(check_encoding(100, 11, 10, 128 * kKiB).ok());
  EXPECT_FALSE(check_encoding(100, 3, 10, 0).ok());
  EXPECT_FALSE(check_encoding(100, 3, 300, 1024).ok());
  EXPECT_TRUE(check_encoding(100, 3, 10, 1024).ok());
  EXPECT_NE(check_encoding(100, 11, 10, 1024).message().find("k <= n"), std::string::npos);
}

// The notes' model of the ticket's download: 96 segments, 289 reads per share (16 in segment 0); before
// the fix k * (segments + reads) = 1,155 loops, after it 2 per share per segment = 576.
TEST(Loops, TheTicketsDownloadLoopCounts) {
  EncodedFile file = encode(12 * kMiB, 3, 10, 128 * kKiB);
  LocalDownloadOptions options;
  options.policy = LoopPolicy::kEager;
  LocalDownloadStats eager = run_local_download(file, file.shares(), options);
  ASSERT_TRUE(eager.result.done) << eager.result.error;
  EXPECT_EQ(eager.per_share[0].reads, 289u);
  EXPECT_EQ(eager.totals.reads, 3 * 289u);
  EXPECT_EQ(eager.totals.loop_calls, 1155u);
  EXPECT_EQ(eager.totals.wasted_loops, 1155u - 576u);
  options.policy = LoopPolicy::kCoalesced;
  LocalDownloadStats coalesced = run_local_download(file, file.shares(), options);
  ASSERT_TRUE(coalesced.result.done);
  EXPECT_EQ(coalesced.totals.loop_calls, 576u);
  EXPECT_EQ(coalesced.totals.wasted_loops, 0u);
  EXPECT_EQ(coalesced.totals.reads, eager.totals.reads);
  EXPECT_LT(coalesced.totals.span_ops, eager.totals.span_ops);
  // One reply per reactor turn: nothing to coalesce.
  options.one_reply_per_turn = true;
  LocalDownloadStats spread = run_local_download(file, file.shares(), options);
  EXPECT_EQ(spread.totals.loop_calls, 1155u);
}

TEST(Loops, SegmentZeroReadsMatchTheNotes) {
  // Per share: segment 0 -> 2L + 2 reads, odd -> 1, even s -> 1 + 2 v2(s).
  EncodedFile file = encode(128 * kKiB * 65, 3, 10, 128 * kKiB);  // 65 segments: P = 128, L = 7
  LocalDownloadOptions options;
  LocalDownloadStats stats = run_local_download(file, file.shares(), options);
  ASSERT_TRUE(stats.result.done);
  uint64_t expected = 16;  // segment 0
  for (uint64_t s = 1; s < 65; ++s) expected += s % 2 == 1 ? 1 : 1 + 2 * trailing_zeros(s);
  EXPECT_EQ(stats.per_share[0].reads, expected);
}

// A bucket that answers inside read() itself: the reply's schedule_loop() runs while loop() is still
// running. The flag is cleared first thing in loop(), so that wake-up queues another pass.
class SynchronousBucket : public RemoteBucket {
 public:
  explicit SynchronousBucket(const std::string& share) : share_(share) {}
  void read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) override {
    on_reply(start < share_.size() ? share_.substr(start, length) : std::string());
  }
  void readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) override {
    std::vector<std::string> replies;
    replies.reserve(spans.size());
    for (const Span& span : spans) replies.push_back(share_.substr(span.start, span.length));
    on_reply(replies);
  }

 private:
  const std::string& share_;
};

// A server that goes away after `answers` answers: every later call errbacks (share.py _got_error).
class DyingBucket : public SynchronousBucket {
 public:
  DyingBucket(const std::string& share, int answers) : SynchronousBucket(share), answers_(answers) {}
  void read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) override {
    if (answers_-- > 0) return SynchronousBucket::read(start, length, std::move(on_reply));
    failed("DeadReferenceError");
  }
  void readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) override {
    if (answers_-- > 0) return SynchronousBucket::readv(std::move(spans), std::move(on_reply));
    failed("DeadReferenceError");
  }

 private:
  int answers_;
};

struct SynchronousDownload {
  DownloadResult result;
  std::string contents;
  std::vector<bool> alive;
  std::vector<uint64_t> reads;
};

// A download of every share of `file` over synchronous buckets (share `dying`, if any, a DyingBucket that
// answers `answers` calls), turn after turn until nothing is queued.
SynchronousDownload download_synchronously(const EncodedFile& file, LoopPolicy policy, int dying = -1,
                                           int answers = 0) {
  const std::vector<std::string> stored = file.shares();
  EventualQueue queue;
  DownloadNode node(file.cap);
  std::vector<std::unique_ptr<SynchronousBucket>> buckets;
  std::vector<std::unique_ptr<Share>> shares;
  std::vector<Share*> pointers;
  for (int sh = 0; sh < static_cast<int>(stored.size()); ++sh) {
    const std::string& share = stored[static_cast<size_t>(sh)];
    buckets.push_back(sh == dying ? std::make_unique<DyingBucket>(share, answers)
                                  : std::make_unique<SynchronousBucket>(share));
    shares.push_back(std::make_unique<Share>(node, sh, *buckets.back(), queue, policy, sh));
    pointers.push_back(shares.back().get());
  }
  Download download(node, pointers, queue);
  SynchronousDownload out;
  download.on_data = [&out](const std::string& segment) { out.contents += segment; };
  download.start();
  for (int turn = 0; turn < 100000 && !queue.empty(); ++turn) queue.drain_once();
  out.result = download.result();
  for (const auto& share : shares) {
    out.alive.push_back(share->is_alive());
    out.reads.push_back(share->stats().reads);
  }
  return out;
}

TEST(Loops, CoalescedNeverLosesAWakeUp) {
  EncodedFile file = encode(700 * kKiB + 3, 3, 5, 128 * kKiB);
  for (LoopPolicy policy : {LoopPolicy::kCoalesced, LoopPolicy::kReadv, LoopPolicy::kEager}) {
    SynchronousDownload d = download_synchronously(file, policy);
    ASSERT_TRUE(d.result.done) << "policy " << static_cast<int>(policy);
    EXPECT_EQ(d.contents, file.contents());
  }
}

TEST(LostServer, AFailedCallKillsTheShareAndTheFetcherTakesTheNextOne) {
  EncodedFile file = encode(700 * kKiB + 3, 3, 5, 128 * kKiB);
  for (LoopPolicy policy : {LoopPolicy::kCoalesced, LoopPolicy::kReadv, LoopPolicy::kEager}) {
    SynchronousDownload d = download_synchronously(file, policy, /*dying=*/1, /*answers=*/4);
    ASSERT_TRUE(d.result.done) << d.result.error;
    EXPECT_EQ(d.contents, file.contents());
    EXPECT_FALSE(d.alive[1]);
    EXPECT_GT(d.reads[3], 0u);  // the next share by round-trip time stood in
  }
}

TEST(Corruption, ACorruptBlockIsDetectedAndTheDownloadCompletes) {
  EncodedFile file = encode(1 * kMiB + 5, 3, 10, 128 * kKiB);
  std::vector<std::string> shares = file.shares();
  shares[0][file.offsets.data + 3 * file.sizes.block_size + 17] ^= 0x40;  // share 0, block 3
  LocalDownloadStats stats = run_local_download(file, shares, {});
  ASSERT_TRUE(stats.result.done) << stats.result.error;
  EXPECT_EQ(stats.contents, file.contents());
  EXPECT_TRUE(stats.had_corruption[0]);
  EXPECT_TRUE(stats.alive[0]);              // a corrupt block retires the block, not the share
  EXPECT_GT(stats.per_share[3].reads, 0u);  // the next share by round-trip time stood in
}

TEST(Corruption, ACorruptHashNodeKillsTheShare) {
  EncodedFile file = encode(1 * kMiB + 5, 3, 10, 128 * kKiB);
  std::vector<std::string> shares = file.shares();
  for (size_t node = 0; node < 15; ++node) shares[1][file.offsets.block_hashes + node * kHashSize] ^= 1;
  LocalDownloadStats stats = run_local_download(file, shares, {});
  ASSERT_TRUE(stats.result.done) << stats.result.error;
  EXPECT_EQ(stats.contents, file.contents());
  EXPECT_FALSE(stats.alive[1]);
  EXPECT_TRUE(stats.had_corruption[1]);
}

TEST(Corruption, AShortReadMarksTheTailUnavailable) {
  EncodedFile file = encode(1 * kMiB, 3, 10, 128 * kKiB);
  std::vector<std::string> shares = file.shares();
  uint64_t cut = file.offsets.data + 2 * file.sizes.block_size + 100;  // inside block 2
  shares[2].resize(cut);
  LocalDownloadStats stats = run_local_download(file, shares, {});
  ASSERT_TRUE(stats.result.done) << stats.result.error;
  EXPECT_EQ(stats.contents, file.contents());
  EXPECT_GT(stats.unavailable_bytes[2], 0u);
  EXPECT_FALSE(stats.alive[2]);  // it needed bytes it will never get
  // An intact share loses only the overrun of its speculative 2 KiB UEB read past the end of the share.
  EXPECT_EQ(stats.unavailable_bytes[0], 2048u - 4u - read_be32(file.shares()[0], file.offsets.uri_extension));
}

TEST(Policies, AllDeliverTheOriginalBytes) {
  struct Case {
    uint64_t size;
    int k, n;
    uint64_t segment;
  };
  for (Case c : {Case{12 * kMiB, 3, 10, 128 * kKiB}, Case{1000 * kKiB + 1, 3, 10, 128 * kKiB},
                 Case{5 * kMiB + 11, 10, 20, 1 * kMiB}, Case{100, 1, 1, 128 * kKiB}, Case{1, 2, 4, 64},
                 Case{3 * kMiB, 30, 60, 128 * kKiB}}) {
    EncodedFile file = encode(c.size, c.k, c.n, c.segment);
    std::string first;
    for (LoopPolicy policy : {LoopPolicy::kEager, LoopPolicy::kCoalesced, LoopPolicy::kReadv}) {
      LocalDownloadOptions options;
      options.policy = policy;
      LocalDownloadStats stats = run_local_download(file, file.shares(), options);
      ASSERT_TRUE(stats.result.done) << "size " << c.size << ": " << stats.result.error;
      EXPECT_EQ(stats.contents, file.contents()) << "size " << c.size;
    }
  }
}

}  // namespace
}  // namespace perflab::share

namespace perflab::share {
namespace {

TEST(EventualQueue, CallsQueuedDuringADrainWaitForTheNextTurn) {
  EventualQueue queue;
  std::vector<int> ran;
  queue.eventually([&] {
    ran.push_back(1);
    queue.eventually([&] { ran.push_back(3); });
  });
  queue.eventually([&] { ran.push_back(2); });
  EXPECT_EQ(queue.drain_once(), 2u);
  EXPECT_EQ(ran, (std::vector<int>{1, 2}));
  EXPECT_EQ(queue.drain_once(), 1u);
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace perflab::share
