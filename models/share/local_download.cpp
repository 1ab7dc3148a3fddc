// In-process download (see local_download.h).
#include "models/share/local_download.h"

#include <algorithm>

namespace perflab::share {

std::string LocalBucket::slice(uint64_t start, uint64_t length) const {
  if (start >= share_.size()) return {};
  return share_.substr(start, length);
}

void LocalBucket::read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) {
  outbox_.emplace_back(
      [this, start, length, on_reply = std::move(on_reply)] { on_reply(slice(start, length)); });
}

void LocalBucket::readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) {
  outbox_.emplace_back([this, spans = std::move(spans), on_reply = std::move(on_reply)] {
    std::vector<std::string> replies;
    for (const Span& span : spans) replies.push_back(slice(span.start, span.length));
    on_reply(std::move(replies));
  });
}

LocalDownloadStats run_local_download(const EncodedFile& file, const std::vector<std::string>& shares,
                                      const LocalDownloadOptions& options) {
  EventualQueue queue;
  DownloadNode node(file.cap);
  std::vector<std::function<void()>> outbox;
  std::vector<std::unique_ptr<LocalBucket>> buckets;
  std::vector<std::unique_ptr<Share>> owned;
  std::vector<Share*> shares_in_use;
  for (size_t sh = 0; sh < shares.size(); ++sh) {
    buckets.push_back(std::make_unique<LocalBucket>(shares[sh], outbox));
    double rtt = sh < options.dyhb_rtt.size() ? options.dyhb_rtt[sh] : static_cast<double>(sh);
    owned.push_back(
        std::make_unique<Share>(node, static_cast<int>(sh), *buckets.back(), queue, options.policy, rtt));
    shares_in_use.push_back(owned.back().get());
  }
  Download download(node, shares_in_use, queue);
  LocalDownloadStats stats;
  download.on_data = [&stats](const std::string& segment) { stats.contents += segment; };
  download.decode_hook = [&stats](const DecodeWork& work) { stats.decodes.push_back(work); };
  download.start();
  while (!queue.empty() || !outbox.empty()) {
    ++stats.turns;
    queue.drain_once();
    // The I/O pass: every reply sent so far (or just the oldest), callbacks run synchronously.
    std::vector<std::function<void()>> arrived;
    if (options.one_reply_per_turn && !outbox.empty()) {
      arrived.push_back(std::move(outbox.front()));
      outbox.erase(outbox.begin());
    } else {
      arrived.swap(outbox);
    }
    for (auto& reply : arrived) reply();
    stats.max_held_hashes = std::max(stats.max_held_hashes, node.held_hashes());
  }
  stats.result = download.result();
  for (const auto& share : owned) {
    stats.per_share.push_back(share->stats());
    stats.totals += share->stats();
    stats.alive.push_back(share->is_alive());
    stats.had_corruption.push_back(share->had_corruption());
    stats.unavailable_bytes.push_back(share->unavailable().len());
  }
  return stats;
}

}  // namespace perflab::share
