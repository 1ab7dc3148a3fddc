// DownloadNode and CommonShare (see download_node.h).
#include "models/share/download_node.h"

#include "models/share/hashes.h"

namespace perflab::share {

void CommonShare::set_authoritative_num_segments(uint64_t numsegs) {
  if (leaves_ != numsegs) {
    block_hash_tree_ = IncompleteHashTree(numsegs, kSegmentTreeRetention);
    leaves_ = numsegs;
  }
  authoritative_ = true;
}

std::vector<size_t> CommonShare::get_desired_block_hashes(uint64_t segnum, OpCounter* ops) const {
  if (segnum < leaves_) return block_hash_tree_.needed_hashes(segnum, true, ops);
  return {};
}

Status CommonShare::check_block(uint64_t segnum, const std::string& block, OpCounter* ops) {
  return block_hash_tree_.set_hashes({}, {{segnum, block_hash(block)}}, ops);
}

DownloadNode::DownloadNode(VerifyCap cap, uint64_t guessed_segment_size)
    : cap_(std::move(cap)),
      guessed_segment_size_(choose_segment_size(cap_.size, cap_.needed_shares, guessed_segment_size)),
      sizes_(calculate_sizes(guessed_segment_size_)),
      share_hash_tree_(static_cast<size_t>(cap_.total_shares)),
      ciphertext_hash_tree_(sizes_.num_segments, kSegmentTreeRetention) {}

std::optional<uint64_t> DownloadNode::segment_size() const {
  if (!ueb_) return std::nullopt;
  return ueb_->segment_size;
}

uint64_t DownloadNode::num_segments() const {
  return sizes_.num_segments;
}

Status DownloadNode::validate_and_store_ueb(const std::string& ueb_data) {
  if (uri_extension_hash(ueb_data) != cap_.ueb_hash) {
    return Status::Error("BadHashError: URI extension block does not match the read cap");
  }
  auto ueb = unpack_ueb(ueb_data);
  if (!ueb.ok()) return Status::Error("LayoutInvalid: " + ueb.status().message());
  if (ueb->size != cap_.size || ueb->needed_shares != cap_.needed_shares ||
      ueb->segment_size % static_cast<uint64_t>(cap_.needed_shares) != 0) {
    return Status::Error("LayoutInvalid: URI extension block disagrees with the read cap");
  }
  ueb_ = *ueb;
  sizes_ = calculate_sizes(ueb->segment_size);
  if (sizes_.num_segments != ueb->num_segments) return Status::Error("LayoutInvalid: num_segments");
  Status root = share_hash_tree_.set_hashes({{0, ueb->share_root_hash}});
  if (!root.ok()) return root;
  if (ciphertext_hash_tree_.num_leaves() != sizes_.num_segments) {
    ciphertext_hash_tree_ = IncompleteHashTree(sizes_.num_segments, kSegmentTreeRetention);
  }
  Status croot = ciphertext_hash_tree_.set_hashes({{0, ueb->crypttext_root_hash}});
  if (!croot.ok()) return croot;
  for (auto& [shnum, common] : common_shares_) common->set_authoritative_num_segments(sizes_.num_segments);
  return Status::OK();
}

std::vector<size_t> DownloadNode::get_desired_ciphertext_hashes(uint64_t segnum, OpCounter* ops) const {
  if (segnum < ciphertext_hash_tree_.num_leaves())
    return ciphertext_hash_tree_.needed_hashes(segnum, true, ops);
  return {};
}

Status DownloadNode::check_segment(uint64_t segnum, const std::string& segment) {
  return ciphertext_hash_tree_.set_hashes({}, {{segnum, crypttext_segment_hash(segment)}});
}

CommonShare& DownloadNode::common_share(int shnum) {
  auto& slot = common_shares_[shnum];
  if (!slot) {
    slot = std::make_unique<CommonShare>(sizes_.num_segments);
    if (ueb_) slot->set_authoritative_num_segments(sizes_.num_segments);
  }
  return *slot;
}

size_t DownloadNode::held_hashes() const {
  size_t held = share_hash_tree_.held_hashes() + ciphertext_hash_tree_.held_hashes();
  for (const auto& [shnum, common] : common_shares_) held += common->held_hashes();
  return held;
}

}  // namespace perflab::share
