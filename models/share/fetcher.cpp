// SegmentFetcher and Download (see fetcher.h).
#include "models/share/fetcher.h"

#include <algorithm>

namespace perflab::share {

SegmentFetcher::SegmentFetcher(Download& download, uint64_t segnum, std::vector<Share*> shares)
    : download_(download), segnum_(segnum), unused_(std::move(shares)) {
  std::sort(unused_.begin(), unused_.end(), [](const Share* a, const Share* b) {
    return a->dyhb_rtt() != b->dyhb_rtt() ? a->dyhb_rtt() < b->dyhb_rtt() : a->shnum() < b->shnum();
  });
}

void SegmentFetcher::start() {
  download_.queue().eventually([this] { loop(); });
}

void SegmentFetcher::stop() {
  running_ = false;
  for (auto& [shnum, entry] : active_) entry.first->cancel(entry.second);  // _cancel_all_requests
  active_.clear();
}

void SegmentFetcher::loop() {
  if (!running_) return;
  const auto k = static_cast<size_t>(download_.k());
  while (active_.size() + blocks_.size() < k) {
    auto next = std::find_if(unused_.begin(), unused_.end(), [&](Share* share) {
      return share->is_alive() && blocks_.count(share->shnum()) == 0 && active_.count(share->shnum()) == 0;
    });
    if (next == unused_.end()) {
      if (active_.empty()) {
        stop();
        download_.fetch_failed("ran out of shares for segment " + std::to_string(segnum_) + ": " +
                               std::to_string(blocks_.size()) + " of " + std::to_string(k) + " blocks");
      }
      return;  // outstanding requests may yet complete
    }
    Share* share = *next;
    unused_.erase(next);
    int handle = share->get_block(segnum_, [this, share](BlockState state, std::string* block) {
      block_activity(share, state, block);
    });
    active_[share->shnum()] = {share, handle};
  }
  if (blocks_.size() >= k) {
    auto blocks = std::move(blocks_);
    stop();
    download_.process_blocks(segnum_, blocks);
  }
}

void SegmentFetcher::block_activity(Share* share, BlockState state, std::string* block) {
  if (!running_) return;
  active_.erase(share->shnum());
  if (state == BlockState::kComplete) blocks_[share->shnum()] = std::move(*block);
  download_.queue().eventually([this] { loop(); });
}

Download::Download(DownloadNode& node, std::vector<Share*> shares, EventualQueue& queue)
    : node_(node),
      shares_(std::move(shares)),
      queue_(queue),
      code_(node.cap().needed_shares, node.cap().total_shares) {}

void Download::start() {
  queue_.eventually([this] { get_segment(0); });
}

void Download::get_segment(uint64_t segnum) {
  if (segment_hook) segment_hook(segnum, true);
  fetcher_ = std::make_unique<SegmentFetcher>(*this, segnum, shares_);
  fetcher_->start();
}

void Download::process_blocks(uint64_t segnum, const std::map<int, std::string>& blocks) {
  Status decoded = code_.decode_into(blocks, segment_);
  if (!decoded.ok()) return fetch_failed(decoded.message());
  if (decode_hook) {
    DecodeWork work{segment_.size(), blocks.begin()->second.size(), k(), 0};
    int used = 0;
    for (const auto& [shnum, block] : blocks) {
      if (used++ == k()) break;  // decode uses the first k
      if (shnum >= k()) ++work.rebuilt_blocks;
    }
    decode_hook(work);
  }
  const Sizes& sizes = node_.sizes();
  if (segnum + 1 == sizes.num_segments) segment_.resize(sizes.tail_segment_size);
  Status valid = node_.check_segment(segnum, segment_);
  if (!valid.ok()) return fetch_failed("segment " + std::to_string(segnum) + ": " + valid.message());
  queue_.eventually([this, segnum] { deliver(segnum, segment_); });
}

void Download::deliver(uint64_t segnum, const std::string& segment) {
  if (on_data) on_data(segment);
  result_.bytes += segment.size();
  ++result_.segments;
  if (segment_hook) segment_hook(segnum, false);
  if (segnum + 1 < node_.sizes().num_segments) {
    queue_.eventually([this, segnum] { get_segment(segnum + 1); });
  } else {
    result_.done = true;
  }
}

void Download::fetch_failed(const std::string& why) {
  if (result_.error.empty()) result_.error = why;
}

}  // namespace perflab::share
