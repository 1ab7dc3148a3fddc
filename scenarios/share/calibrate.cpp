// Micro engine driver: times the real get_satisfaction()/desire() code of redundant loop() passes, to
// calibrate cpu = "measured". A share asks for segment 0 of the point's file from a server that never
// answers; every further loop() then finds nothing new and recomputes the same desire bitmap over the
// pending reads — exactly the pass the coalescing fix removes. ns_per_op = time / counted span operations.
#include <memory>

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

Result<MicroWorkload> setup_calibration(const Params& params) {
  auto file = encoded_file(params);
  if (!file.ok()) return file.status();
  auto policy = share::parse_loop_policy(params.string("loop"));
  if (!policy.ok()) return policy.status();
  const int64_t passes = params.integer("passes");
  auto bench = std::make_shared<std::unique_ptr<Bench>>();
  MicroWorkload micro;
  micro.set_up = [=] {
    *bench = std::make_unique<Bench>(**file, *policy);
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
    return Metrics{{"seconds", seconds},
                   {"span_ops", ops},
                   {"ns_per_op", ops > 0 ? seconds * 1e9 / ops : 0},
                   {"us_per_pass", seconds * 1e6 / static_cast<double>(passes)}};
  };
  return micro;
}

}  // namespace perflab::share_study
