// The segment fetcher and the download (downloader/fetcher.py SegmentFetcher, downloader/node.py).
//
//   SegmentFetcher(segnum): shares sorted by (DYHB round-trip time, share number), one per server;
//     loop(): while fewer than k shares are active or done: start the next unused share (get_block);
//             none left and not enough -> the download fails; k blocks -> stop (cancel the rest) and
//             hand them to the download
//     block activity (COMPLETE, CORRUPT, DEAD, BADSEGNUM): untrack the share, keep a COMPLETE block,
//             eventually(loop)                                               (fetcher.py:232-268)
//   Download: one segment at a time; k blocks are decoded (decode_hook charges the CPU: the segment's bytes
//     and the blocks rebuilt from parity, as zfec passes primary blocks through), the segment is
//     checked against the ciphertext hash tree, delivered on the next turn, and the next segment's
//     fetcher starts on the turn after (notify -> fetcher loop -> deliver -> next get_segment).
//     Delivered bytes are not kept: they go to `on_data`. Like Tahoe's, the download hashes no whole file
//     (node.py _parse_and_store_UEB ignores the UEB's crypttext_hash: "Our job is a fast download, not
//     verification"); a caller that wants to know the bytes are the file's compares them as they come.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/share/download_node.h"
#include "models/share/erasure.h"
#include "models/share/eventual.h"
#include "models/share/share.h"

namespace perflab::share {

class Download;

class SegmentFetcher {
 public:
  SegmentFetcher(Download& download, uint64_t segnum, std::vector<Share*> shares);
  void start();  // eventually(loop)
  void stop();

 private:
  void loop();
  void block_activity(Share* share, BlockState state, std::string* block);

  Download& download_;
  uint64_t segnum_;
  std::vector<Share*> unused_;                    // sorted by (dyhb_rtt, shnum)
  std::map<int, std::pair<Share*, int>> active_;  // shnum -> (share, request handle)
  std::map<int, std::string> blocks_;
  bool running_ = true;
};

// What decoding one segment did (Download::decode_hook): zfec's decode passes each primary block it was
// given through and rebuilds each missing one from the k blocks (fec.c fec_decode: one addmul of a block
// per input for every row whose share is not primary), so its work is per rebuilt block, not per byte.
struct DecodeWork {
  uint64_t segment_bytes = 0;  // the segment assembled (and then hashed against the ciphertext tree)
  uint64_t block_size = 0;
  int k = 0;
  int rebuilt_blocks = 0;  // primary blocks not among the k used: each is k block-sized multiply-adds
  uint64_t multiplied_bytes() const {
    return static_cast<uint64_t>(rebuilt_blocks) * static_cast<uint64_t>(k) * block_size;
  }
};

struct DownloadResult {
  bool done = false;
  std::string error;   // why the download failed, if it did
  uint64_t bytes = 0;  // delivered
  uint64_t segments = 0;
};

class Download {
 public:
  Download(DownloadNode& node, std::vector<Share*> shares, EventualQueue& queue);
  void start();  // fetches segment 0 on the next turn
  const DownloadResult& result() const { return result_; }
  EventualQueue& queue() { return queue_; }

  // Hooks for the driver: decode CPU (what decoding did) and segment boundaries on its timeline.
  std::function<void(const DecodeWork& work)> decode_hook;
  std::function<void(uint64_t segnum, bool started)> segment_hook;
  // Each delivered segment's bytes, in order (tests keep them; the simulation does not).
  std::function<void(const std::string& segment)> on_data;

 private:
  friend class SegmentFetcher;
  void get_segment(uint64_t segnum);
  void process_blocks(uint64_t segnum, const std::map<int, std::string>& blocks);
  void deliver(uint64_t segnum, const std::string& segment);
  void fetch_failed(const std::string& why);
  int k() const { return node_.cap().needed_shares; }

  DownloadNode& node_;
  std::vector<Share*> shares_;
  EventualQueue& queue_;
  ErasureCode code_;
  std::unique_ptr<SegmentFetcher> fetcher_;
  DownloadResult result_;
  std::string segment_;  // the segment decoded last, delivered on the next turn (one at a time)
};

}  // namespace perflab::share
