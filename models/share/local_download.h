// A whole download in one process, with no network: storage servers that answer every read at once and a
// Twisted-like turn loop (drain the eventual queue once, then one I/O pass that delivers every reply sent
// so far, each server's replies together). The unit tests drive the model through it, and the micro
// engine times it to calibrate the cost of one span operation (cpu = "measured").
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/share/fetcher.h"
#include "models/share/layout.h"
#include "models/share/share.h"

namespace perflab::share {

// One storage server's bucket for one share, answering from memory. Replies wait in `outbox` until the
// owner delivers them.
class LocalBucket : public RemoteBucket {
 public:
  LocalBucket(const std::string& share, std::vector<std::function<void()>>& outbox)
      : share_(share), outbox_(outbox) {}
  void read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) override;
  void readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) override;
  std::string slice(uint64_t start, uint64_t length) const;  // short past the end

 private:
  const std::string& share_;
  std::vector<std::function<void()>>& outbox_;
};

struct LocalDownloadOptions {
  LoopPolicy policy = LoopPolicy::kCoalesced;
  bool one_reply_per_turn = false;  // deliver replies one I/O pass each instead of all together
  std::vector<double> dyhb_rtt;     // per share number; empty: share number order
};

struct LocalDownloadStats {
  DownloadResult result;
  std::string contents;  // the downloaded file
  ShareStats totals;     // summed over shares
  std::vector<ShareStats> per_share;
  std::vector<bool> alive;  // per share number, at the end
  std::vector<bool> had_corruption;
  std::vector<uint64_t> unavailable_bytes;  // asked for but never returned (short reads)
  std::vector<DecodeWork> decodes;          // one per segment, in order
  uint64_t turns = 0;
  size_t max_held_hashes = 0;  // the most the download's hash trees held at the end of a turn
};

LocalDownloadStats run_local_download(const EncodedFile& file, const std::vector<std::string>& shares,
                                      const LocalDownloadOptions& options);

}  // namespace perflab::share
