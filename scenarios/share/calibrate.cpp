// Micro engine driver: the two costs of cpu = "measured", timed on the real code.
//   workload = "loop":   redundant loop() passes. A share asks for segment 0 of the point's file from a
//                        server that never answers; every further loop() finds nothing new and recomputes
//                        the same desire bitmap over the pending reads — exactly the pass the coalescing
//                        fix removes. measured_ns_per_op = time / counted span operations.
//   workload = "decode": what a download does with segment 0's k blocks, `passes` times: hashes each block
//                        (its block hash tree leaf), decodes the segment from the last k shares and hashes
//                        it (its ciphertext tree leaf). ns_per_byte = time / segment bytes. With n = k the
//                        shares are the primary ones (nothing rebuilt: hash_ns_per_byte); with n >= 2k all
//                        parity (k blocks rebuilt, k x k blocks multiplied: the difference per multiplied
//                        byte is decode_ns_per_byte).
#include <map>
#include <memory>

#include "models/share/erasure.h"
#include "models/share/hashes.h"
#include "models/share/share.h"
#include "scenarios/share/share_study.h"

namespace perflab::share_study {
namespace {

class SilentBucket : public share::RemoteBucket {
 public:
  void read(uint64_t, uint64_t, std::function<void(std::string)>) override {}
  void readv(std::vector<share::Span>, std::function<void(std::vector<std::string>)>) override {}
};

struct Bench {
  explicit Bench(const share::EncodedFile& file, share::LoopPolicy policy)
      : node(file.cap), share(node, 0, bucket, queue, policy, 0) {
    share.get_block(0, [](share::BlockState, const std::string*) {});
    queue.drain_once();  // the first pass sends the reads; they stay pending
  }
  share::DownloadNode node;
  SilentBucket bucket;
  share::EventualQueue queue;
  share::Share share;
};

}  // namespace

Result<MicroWorkloadOf<CalibrationReport>> setup_decode(const share::EncodedFile& f, int64_t passes) {
  const int k = f.cap.needed_shares;
  const int n = f.cap.total_shares;
  std::map<int, std::string> blocks;
  for (int sh = n - k; sh < n; ++sh) {
    blocks[sh] = f.block(sh, 0);
  }
  auto code = std::make_shared<share::ErasureCode>(k, n);
  MicroWorkloadOf<CalibrationReport> micro;
  micro.run = [code, blocks, passes] {
    double bytes = 0;
    for (int64_t i = 0; i < passes; ++i) {
      size_t hashed = 0;
      for (const auto& [sh, block] : blocks) hashed += share::block_hash(block).size();
      auto segment = code->decode(blocks);
      if (!segment.ok() || share::crypttext_segment_hash(*segment).size() + hashed == 0) break;
      bytes += static_cast<double>(segment->size());
    }
    return Metrics{{"bytes_decoded", bytes}};
  };
  micro.report = [passes](double seconds, const Metrics& counters) {
    double bytes = counters.count("bytes_decoded") ? counters.at("bytes_decoded") : 0;
    return CalibrationReport{seconds, 0, 0, seconds * 1e6 / static_cast<double>(passes),
                             bytes > 0 ? seconds * 1e9 / bytes : 0};
  };
  return micro;
}

Result<MicroWorkloadOf<CalibrationReport>> setup_calibration(const Params& params,
                                                             const PointInputs& inputs) {
  const auto& file = inputs.get<share::EncodedFile>();  // outlives the workload: the runner's
  const ShareOptions o = knobs().options(params);
  if (o.workload == CalibrationWorkload::kDecode) return setup_decode(file, o.passes);
  const int64_t passes = o.passes;
  auto bench = std::make_shared<std::unique_ptr<Bench>>();
  MicroWorkloadOf<CalibrationReport> micro;
  micro.set_up = [bench, &file, policy = o.loop] {
    *bench = std::make_unique<Bench>(file, policy);
    return Status::OK();
  };
  micro.run = [bench, passes] {
    Bench& b = **bench;
    uint64_t before = b.share.stats().span_ops;
    for (int64_t i = 0; i < passes; ++i) b.share.loop();
    return Metrics{{"span_ops", static_cast<double>(b.share.stats().span_ops - before)}};
  };
  micro.tear_down = [bench] { bench->reset(); };
  micro.report = [passes](double seconds, const Metrics& counters) {
    double ops = counters.count("span_ops") ? counters.at("span_ops") : 0;
    return CalibrationReport{seconds, ops, ops > 0 ? seconds * 1e9 / ops : 0,
                             seconds * 1e6 / static_cast<double>(passes), 0};
  };
  return micro;
}

}  // namespace perflab::share_study
