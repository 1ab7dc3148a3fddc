// What every Share of one file has in common (downloader/node.py DownloadNode, downloader/share.py
// CommonShare): the read cap, the URI extension block once validated, the share hash tree and the
// ciphertext hash tree (per file), and one CommonShare — the block hash tree — per share number.
// Before the UEB arrives the trees are sized from a guessed segment size; validating the UEB makes the
// segment count authoritative. The block and ciphertext trees keep only the frontier of a sequential
// download (IncompleteHashTree::Retention::kFrontier): held hashes do not grow with the file.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/status.h"
#include "models/share/hash_tree.h"
#include "models/share/layout.h"

namespace perflab::share {

// The trees with a leaf per segment.
constexpr auto kSegmentTreeRetention = IncompleteHashTree::Retention::kFrontier;

class CommonShare {
 public:
  explicit CommonShare(uint64_t best_numsegs)
      : block_hash_tree_(best_numsegs, kSegmentTreeRetention), leaves_(best_numsegs) {}
  void set_authoritative_num_segments(uint64_t numsegs);
  bool need_block_hash_root() const { return !block_hash_tree_.has(0); }
  Status set_block_hash_root(std::string_view root) {
    return block_hash_tree_.set_hashes({{0, std::string(root)}});
  }
  std::vector<size_t> get_desired_block_hashes(uint64_t segnum, OpCounter* ops) const;
  std::vector<size_t> get_needed_block_hashes(uint64_t segnum, OpCounter* ops) const {
    return block_hash_tree_.needed_hashes(segnum, true, ops);
  }
  Status process_block_hashes(const std::map<size_t, std::string>& hashes, OpCounter* ops) {
    return block_hash_tree_.set_hashes(hashes, {}, ops);
  }
  Status check_block(uint64_t segnum, const std::string& block, OpCounter* ops);
  size_t held_hashes() const { return block_hash_tree_.held_hashes(); }

 private:
  IncompleteHashTree block_hash_tree_;
  uint64_t leaves_;
  bool authoritative_ = false;
};

class DownloadNode {
 public:
  DownloadNode(VerifyCap cap, uint64_t guessed_segment_size = kGuessedSegmentSize);

  const VerifyCap& cap() const { return cap_; }
  bool have_ueb() const { return ueb_.has_value(); }
  Sizes calculate_sizes(uint64_t segment_size) const {
    return share::calculate_sizes(cap_.size, cap_.needed_shares, segment_size);
  }
  uint64_t guessed_segment_size() const { return guessed_segment_size_; }
  std::optional<uint64_t> segment_size() const;  // known once the UEB is
  uint64_t num_segments() const;                 // authoritative or guessed
  const Sizes& sizes() const { return sizes_; }  // from the real segment size once the UEB is known

  Status validate_and_store_ueb(const std::string& ueb_data);
  IncompleteHashTree& share_hash_tree() { return share_hash_tree_; }
  Status process_share_hashes(const std::map<size_t, std::string>& hashes, OpCounter* ops) {
    return share_hash_tree_.set_hashes(hashes, {}, ops);
  }
  std::vector<size_t> get_desired_ciphertext_hashes(uint64_t segnum, OpCounter* ops) const;
  std::vector<size_t> get_needed_ciphertext_hashes(uint64_t segnum, OpCounter* ops) const {
    return ciphertext_hash_tree_.needed_hashes(segnum, true, ops);
  }
  Status process_ciphertext_hashes(const std::map<size_t, std::string>& hashes, OpCounter* ops) {
    return ciphertext_hash_tree_.set_hashes(hashes, {}, ops);
  }

  // The decoded segment against the ciphertext hash tree.
  Status check_segment(uint64_t segnum, const std::string& segment);
  CommonShare& common_share(int shnum);
  // The hashes all its trees hold now: the share hash tree, the ciphertext tree and every block tree.
  size_t held_hashes() const;

 private:
  VerifyCap cap_;
  uint64_t guessed_segment_size_;
  Sizes sizes_;
  std::optional<Ueb> ueb_;
  IncompleteHashTree share_hash_tree_;
  IncompleteHashTree ciphertext_hash_tree_;
  std::map<int, std::unique_ptr<CommonShare>> common_shares_;
};

}  // namespace perflab::share
