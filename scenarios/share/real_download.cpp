// Real engine driver: one immutable download in real time. This process is the downloader: the model's own
// Share, SegmentFetcher and Download (with the point's loop policy) on a real single-threaded event loop,
// RealReactor, whose turn is Twisted's as download.cpp's Reactor simulates it:
//   1. drain Foolscap's eventual-send queue once (models/share/eventual.h): what a turn queues runs on the
//      next one;
//   2. write out the turn's remote calls, one message per server (Twisted's transport.write buffers; the
//      reactor writes when the turn is over);
//   3. one I/O pass: every answer due at this instant, from every server, has its callbacks run (the data
//      stored, schedule_loop() called), so answers that arrive together are handled in one turn.
// The n storage servers run in a forked process (real_storage.h) and serve the real shares; each server has
// its own loopback link, shaped in user space in both directions (bandwidth and a latency drawn per message,
// absolute deadlines: sim/real/). Hashing, decoding and the loop's bookkeeping cost this machine's real CPU:
// nothing is charged, the code runs. A server whose link ends errbacks its outstanding calls, and its share
// dies (share.py _got_error): the fetcher goes on with another share, as Tahoe's does; a download that runs
// out of shares is a failed row.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/share/fetcher.h"
#include "models/share/share.h"
#include "scenarios/share/real_protocol.h"
#include "scenarios/share/real_storage.h"
#include "scenarios/share/share_study.h"
#include "sim/real/frame_inbox.h"
#include "sim/real/peer_process.h"
#include "sim/real/realtime.h"
#include "sim/real/shaped_link.h"
#include "sim/real/wire_codec.h"

namespace perflab::share_study {
namespace {

constexpr int kConnectTimeoutMs = 30'000;
constexpr int kIdleTimeoutMs = 60'000;  // no answer for this long: the storage process is stuck
constexpr int kExitTimeoutMs = 10'000;
constexpr std::uint64_t kMaxTurns = 100'000'000;  // far above any download: a loop that cannot run away

using Links = std::vector<std::unique_ptr<real::ShapedLink>>;
using OnReply = std::function<void(std::vector<std::string>)>;

class RealReactor;

// The downloader's remote reference to one server's bucket: calls wait in the reactor until the turn ends.
class RealBucket : public share::RemoteBucket {
 public:
  RealBucket(RealReactor& reactor, int server) : reactor_(reactor), server_(server) {}
  void read(std::uint64_t start, std::uint64_t length, std::function<void(std::string)> on_reply) override;
  void readv(std::vector<share::Span> spans, OnReply on_reply) override;
  void errback(const std::string& why) { failed(why); }

 private:
  RealReactor& reactor_;
  int server_;
};

struct Call {
  WireCall wire;
  OnReply on_reply;
};

class RealReactor {
 public:
  RealReactor(Links& links, real::FrameInbox& inbox)
      : links_(links),
        inbox_(inbox),
        buckets_(links.size(), nullptr),
        outgoing_(links.size()),
        in_flight_(links.size()),
        lost_(links.size(), false),
        why_lost_(links.size()) {}

  share::EventualQueue& queue() { return queue_; }
  void set_bucket(int server, RealBucket* bucket) { buckets_[static_cast<size_t>(server)] = bucket; }

  void queue_call(int server, Call call) {
    if (lost_[static_cast<size_t>(server)]) {
      late_errors_.push_back(server);  // a call on a dead reference errbacks (on the next I/O pass)
      return;
    }
    outgoing_[static_cast<size_t>(server)].push_back(std::move(call));
  }

  // The DYHB round: one query per server, all in flight at once. Each server's round-trip time, or nullopt
  // for a server whose link ended before it answered.
  Result<std::vector<std::optional<double>>> dyhb() {
    const std::int64_t start = real::monotonic_ns();
    for (size_t s = 0; s < links_.size(); ++s) {
      Status sent = links_[s]->send(kDyhb, next_id_++, "");
      if (!sent.ok()) lost_[s] = true;
    }
    std::vector<std::optional<double>> rtt(links_.size());
    size_t settled = 0;
    for (bool l : lost_) settled += l ? 1 : 0;
    while (settled < links_.size()) {
      auto arrivals = inbox_.next(/*block=*/true, kIdleTimeoutMs);
      if (!arrivals.ok()) return arrivals.status();
      const double now = static_cast<double>(real::monotonic_ns() - start) * 1e-9;
      for (const auto& arrival : *arrivals) {
        const auto s = static_cast<size_t>(arrival.link);
        if (lost_[s] || rtt[s]) continue;
        if (arrival.frame && arrival.frame->kind != kDyhbAnswer) {
          return Status::Error("server " + std::to_string(s) + " answered DYHB with message kind " +
                               std::to_string(arrival.frame->kind));
        }
        if (arrival.frame) {
          rtt[s] = now;
        } else {
          lost_[s] = true;
        }
        ++settled;
      }
    }
    return rtt;
  }

  // Runs turns until the download is over (or nothing can move it any more: the caller reports a stall).
  Status run(const share::Download& download) {
    for (std::uint64_t turn = 0; turn < kMaxTurns; ++turn) {
      if (download.result().done || !download.result().error.empty()) return Status::OK();
      if (!queue_.empty()) queue_.drain_once();
      flush();
      if (queue_.empty() && outstanding() == 0) return Status::OK();
      Status pass = io_pass(/*block=*/queue_.empty() && late_errors_.empty());
      if (!pass.ok()) return pass;
    }
    return Status::Error("the download ran more than " + std::to_string(kMaxTurns) + " turns");
  }

  // The first server whose link still works, for the closing bye; nullopt when none does.
  std::optional<int> live_server() const {
    for (size_t s = 0; s < lost_.size(); ++s) {
      if (!lost_[s]) return static_cast<int>(s);
    }
    return std::nullopt;
  }

  std::uint64_t next_id() { return next_id_++; }

 private:
  size_t outstanding() const {
    size_t count = late_errors_.size();
    for (const auto& messages : in_flight_) count += messages.size();
    return count;
  }

  // The turn's calls, one message per server.
  void flush() {
    for (size_t s = 0; s < links_.size(); ++s) {
      if (outgoing_[s].empty()) continue;
      std::vector<Call> calls = std::move(outgoing_[s]);
      outgoing_[s].clear();
      std::vector<WireCall> wire;
      wire.reserve(calls.size());
      for (const Call& call : calls) wire.push_back(call.wire);
      const std::uint64_t id = next_id_++;
      in_flight_[s][id] = std::move(calls);
      Status sent = links_[s]->send(kCalls, id, encode_calls(wire));
      if (!sent.ok()) lose(s, sent.message());
    }
  }

  Status io_pass(bool block) {
    std::vector<int> late = std::move(late_errors_);
    late_errors_.clear();
    for (int s : late) buckets_[static_cast<size_t>(s)]->errback(dead_reference(static_cast<size_t>(s)));
    auto arrivals = inbox_.next(block, kIdleTimeoutMs);
    if (!arrivals.ok()) return arrivals.status();
    for (auto& arrival : *arrivals) {
      const auto s = static_cast<size_t>(arrival.link);
      if (!arrival.frame) {
        lose(s, arrival.ended);
        continue;
      }
      const real::Frame& frame = *arrival.frame;
      auto message = in_flight_[s].find(frame.id);
      if (frame.kind != kAnswers || message == in_flight_[s].end()) {
        return Status::Error("server " + std::to_string(s) + " sent an unexpected message (kind " +
                             std::to_string(frame.kind) + ", id " + std::to_string(frame.id) + ")");
      }
      auto answers = decode_answers(frame.payload);
      if (!answers.ok()) return answers.status();
      std::vector<Call> calls = std::move(message->second);
      in_flight_[s].erase(message);
      if (answers->size() != calls.size()) {
        return Status::Error("server " + std::to_string(s) + " answered " + std::to_string(answers->size()) +
                             " of " + std::to_string(calls.size()) + " calls");
      }
      for (size_t i = 0; i < calls.size(); ++i) calls[i].on_reply(std::move((*answers)[i]));
    }
    return Status::OK();
  }

  std::string dead_reference(size_t s) const {
    return "DeadReferenceError: the connection to server " + std::to_string(s) + " was lost (" +
           why_lost_[s] + ")";
  }

  // The server's link ended: each of its outstanding calls errbacks (Foolscap's notifyOnDisconnect).
  void lose(size_t s, const std::string& why) {
    lost_[s] = true;
    why_lost_[s] = why;
    auto messages = std::move(in_flight_[s]);
    in_flight_[s].clear();
    for (auto& [id, calls] : messages) {
      for (size_t i = 0; i < calls.size(); ++i) buckets_[s]->errback(dead_reference(s));
    }
  }

  Links& links_;
  real::FrameInbox& inbox_;
  std::vector<RealBucket*> buckets_;
  share::EventualQueue queue_;
  std::vector<std::vector<Call>> outgoing_;
  std::vector<std::map<std::uint64_t, std::vector<Call>>> in_flight_;  // per server: message id -> its calls
  std::vector<bool> lost_;
  std::vector<int> late_errors_;  // servers of calls made after their link ended
  std::vector<std::string> why_lost_;
  std::uint64_t next_id_ = 1;
};

void RealBucket::read(std::uint64_t start, std::uint64_t length, std::function<void(std::string)> on_reply) {
  reactor_.queue_call(server_, Call{WireCall{false, {share::Span{start, length}}},
                                    [on_reply = std::move(on_reply)](std::vector<std::string> data) {
                                      on_reply(data.empty() ? std::string() : std::move(data.front()));
                                    }});
}

void RealBucket::readv(std::vector<share::Span> spans, OnReply on_reply) {
  reactor_.queue_call(server_, Call{WireCall{true, std::move(spans)}, std::move(on_reply)});
}

// Accepts the n links of the storage process; each says first which server it is.
Result<Links> accept_links(const real::Listener& listener, int servers, const NetworkSpec& network,
                           const RunContext& context, real::DeadlineSleeper& sleeper) {
  Links links(static_cast<size_t>(servers));
  for (int i = 0; i < servers; ++i) {
    auto fd = real::accept_connection(listener, kConnectTimeoutMs);
    if (!fd.ok()) return fd.status();
    auto hello = real::receive_frame(fd->get(), kConnectTimeoutMs);
    if (!hello.ok()) return hello.status();
    if (!hello->has_value() || (*hello)->kind != kHello)
      return Status::Error("a storage link did not say hello");
    auto server = real::decode_number((*hello)->payload, "hello");
    if (!server.ok()) return server.status();
    if (*server >= links.size() || links[*server])
      return Status::Error("storage link for server " + std::to_string(*server) + " twice or out of range");
    links[*server] = std::make_unique<real::ShapedLink>(
        std::move(fd).value(), network,
        context.rng(std::string(kRequestLatencyStream) + "." + std::to_string(*server)), sleeper);
  }
  return links;
}

}  // namespace

Result<RealDownloadResult> run_real_download(const RunContext& context) {
  const ShareOptions o = knobs().options(context.params);
  if (o.cpu != CpuCalibration::kMeasured || o.ns_per_op >= 0 || o.decode_ns_per_byte >= 0 ||
      o.call_cost_us >= 0) {
    return Status::Error(
        "cpu, ns_per_op, decode_ns_per_byte and call_cost charge simulated CPU; the real engine spends "
        "this machine's own: expected cpu = \"measured\" and the costs left at -1");
  }
  const auto& file = context.inputs.get<share::EncodedFile>();
  const int n = static_cast<int>(o.n);

  const bool realtime = real::request_realtime_priority();  // before the storage process is forked
  auto listener = real::listen_loopback();
  if (!listener.ok()) return listener.status();
  std::vector<Rng> reply_rngs;
  for (int s = 0; s < n; ++s)
    reply_rngs.push_back(context.rng(std::string(kReplyLatencyStream) + "." + std::to_string(s)));
  const std::uint16_t port = listener->port;
  auto spawned = real::PeerProcess::spawn(
      "perflab-storage", [&] { return run_storage(port, file, context.network, reply_rngs); });
  if (!spawned.ok()) return spawned.status();
  real::PeerProcess storage = std::move(spawned).value();
  real::DeadlineSleeper sleeper;  // the links' send side does not sleep; kept for their interface
  auto accepted = accept_links(*listener, n, context.network, context, sleeper);
  if (!accepted.ok()) {
    Status ended = storage.poll_ended();
    return Status::Error("the storage servers did not connect: " +
                         (ended.ok() ? accepted.status().message() : ended.message()));
  }
  Links links = std::move(accepted).value();
  auto created = real::FrameInbox::create();
  if (!created.ok()) return created.status();
  real::FrameInbox inbox = std::move(created).value();
  for (int s = 0; s < n; ++s) {
    Status added = inbox.add(s, links[static_cast<size_t>(s)]->fd());
    if (!added.ok()) return added;
  }

  RealReactor reactor(links, inbox);
  share::DownloadNode node(file.cap, o.segment_size_guess);
  std::vector<std::unique_ptr<RealBucket>> buckets;
  std::vector<std::unique_ptr<share::Share>> shares;
  std::string failure;
  const std::int64_t start = real::monotonic_ns();
  auto rtt = reactor.dyhb();
  std::optional<share::Download> download;
  DeliveredBytes delivered(file);
  if (rtt.ok()) {
    std::vector<share::Share*> in_use;
    for (int s = 0; s < n; ++s) {
      buckets.push_back(std::make_unique<RealBucket>(reactor, s));
      reactor.set_bucket(s, buckets.back().get());
      if (!(*rtt)[static_cast<size_t>(s)]) continue;  // no DYHB answer: the server holds no share we use
      shares.push_back(std::make_unique<share::Share>(node, s, *buckets.back(), reactor.queue(), o.loop,
                                                      *(*rtt)[static_cast<size_t>(s)]));
      in_use.push_back(shares.back().get());
    }
    download.emplace(node, in_use, reactor.queue());
    download->on_data = [&delivered](const std::string& segment) { delivered.add(segment); };
    download->start();
    Status ran = reactor.run(*download);
    failure = ran.ok() ? download_failure(download->result(), file, delivered) : ran.message();
  } else {
    failure = rtt.status().message();
  }
  const double duration_s = static_cast<double>(real::monotonic_ns() - start) * 1e-9;

  // The storage process's report, asked of a server still connected.
  StorageReport report;
  if (auto live = reactor.live_server()) {
    real::ShapedLink& link = *links[static_cast<size_t>(*live)];
    if (link.send(kBye, reactor.next_id(), "").ok()) {
      for (int waits = 0; waits < 2 * n + 2; ++waits) {  // past the end-of-link notices of dead servers
        auto arrivals = inbox.next(/*block=*/true, kIdleTimeoutMs);
        if (!arrivals.ok()) break;
        bool got = false;
        for (const auto& arrival : *arrivals) {
          if (arrival.link == *live && arrival.frame && arrival.frame->kind == kReport) {
            auto decoded = decode_report(arrival.frame->payload);
            if (decoded.ok()) report = *decoded;
            got = true;
          }
        }
        if (got) break;
      }
    }
  }
  links.clear();  // closes every link: the storage process, if still serving, sees them end and exits
  Status exit = storage.wait(kExitTimeoutMs);
  if (!failure.empty() || !exit.ok()) {
    return Status::Error("storage process " + (exit.ok() ? std::string("ended") : exit.message()) +
                         (failure.empty() ? "" : ": " + failure));
  }

  RealDownloadResult result;
  for (const auto& sh : shares) {
    result.shares += sh->stats();
    if (!sh->is_alive()) ++result.dead_shares;
  }
  result.duration_s = duration_s;
  real::OversleepStats oversleep = inbox.oversleep();
  oversleep.add(report.oversleep);
  result.sleeps = oversleep.sleeps;
  result.oversleep_mean_s = oversleep.mean_s();
  result.oversleep_max_s = static_cast<double>(oversleep.max_ns) * 1e-9;
  result.realtime = realtime;
  return result;
}

}  // namespace perflab::share_study
