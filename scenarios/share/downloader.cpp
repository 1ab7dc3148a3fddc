// See downloader.h. The downloader is one single-threaded reactor whose every turn, as Twisted/Foolscap's:
//   1. drains the eventual-send queue once (Foolscap's eventually(): Share.loop(), the fetcher's loop,
//      segment delivery); anything queued meanwhile waits for the next turn;
//   2. writes out the remote calls queued during the turn: each read() or readv() is its own Foolscap call,
//      and the calls of one turn to one server leave as one message (Twisted's transport.write only
//      buffers; the reactor sends the buffer when the turn is over: abstract.py write()/doWrite() in
//      Twisted 11.0, NOTES.md);
//   3. runs one I/O pass: every message due at this instant (transport::Node::receive's batch; with the
//      sim's poll_window, also those due within the window after the first) has its answers parsed and
//      their callbacks run synchronously — the data is stored and schedule_loop() is called, as
//      Share._got_data and _trigger_loop do over TCP.
// A server answers all the calls of one message in one turn (foolscap broker.py scheduleCall/doNextCall)
// and its answers leave as one message, so the answers to one loop()'s calls arrive together. Before the
// download, a DYHB query to every server gives the round-trip times the fetcher sorts shares by.
//
// A server whose node ends (its connection lost) errbacks its outstanding calls, and so does a call made on
// its dead reference later (Foolscap's DeadReferenceError); its share dies (share.py _got_error) and the
// fetcher goes on with another share, as Tahoe's does; a download that runs out of shares fails.
//
// CPU (ChargedCosts, one table for both engines: simulated on SimGrid, burnt by the real client): every
// loop() is charged its counted span operations, each decoded segment its bytes (hashed, assembled) and the
// blocks it rebuilt from parity, each remote call its Banana tokens (call_cost.h) on the client (serializing
// the call, parsing the answer) and on its server (parsing, serializing the answer); on the sim, the real
// client's own code is charged per message of calls and per byte (native_*). The reactor computes
// what it was charged only when it next sends or receives (Reactor::settle): nothing it does in between
// depends on the clock, so a turn's loop() passes cost one wait, not one each.
#include "scenarios/share/downloader.h"

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "models/share/fetcher.h"
#include "scenarios/share/call_cost.h"
#include "scenarios/share/protocol.h"
#include "sim/engines/timeline.h"

namespace perflab::share_study {
namespace {

using share::Span;
using transport::Message;
using transport::Node;
using transport::Peer;
using OnReply = std::function<void(std::vector<std::string>)>;

constexpr std::uint64_t kMaxTurns = 100'000'000;  // far above any download: loops that cannot run away

Peer peer_of(int server) {
  return server + 1;
}  // spawned in server order
int server_of(Peer peer) {
  return peer - 1;
}

Status too_many_turns(const std::string& what) {
  return Status::Error(what + " ran more than " + std::to_string(kMaxTurns) + " turns");
}

// A node's sends, each counted in bytes per message kind (header and payload).
class Wire {
 public:
  Wire(Node& node, std::map<std::string, std::uint64_t>& bytes_sent) : node_(node), bytes_sent_(bytes_sent) {}
  Status send(Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) {
    const std::uint64_t bytes = Message::kHeaderBytes + payload.size();
    Status sent = node_.send(to, kind, id, std::move(payload));
    if (sent.ok()) bytes_sent_[kind_name(kind)] += bytes;
    return sent;
  }

 private:
  Node& node_;
  std::map<std::string, std::uint64_t>& bytes_sent_;
};

// One remote read()/readv(), waiting in the reactor until the turn ends, then in flight.
struct Call {
  WireCall wire;
  OnReply on_reply;
  double queued_at = 0;  // the timeline's read span starts here
};

class Reactor;

// The downloader's remote reference to one server's bucket.
class Bucket : public share::RemoteBucket {
 public:
  Bucket(Reactor& reactor, int server) : reactor_(reactor), server_(server) {}
  void read(std::uint64_t start, std::uint64_t length, std::function<void(std::string)> on_reply) override;
  void readv(std::vector<Span> spans, OnReply on_reply) override;
  void errback(const std::string& why) { failed(why); }

 private:
  Reactor& reactor_;
  int server_;
};

class Reactor {
 public:
  Reactor(Node& node, const DownloadSetup& setup, DownloadResult& result)
      : node_(node),
        setup_(setup),
        result_(result),
        wire_(node, result.bytes_sent),
        servers_(static_cast<size_t>(setup.servers)),
        buckets_(servers_.size(), nullptr) {}

  share::EventualQueue& queue() { return queue_; }
  void set_bucket(int server, Bucket* bucket) { buckets_[static_cast<size_t>(server)] = bucket; }

  void queue_call(int server, Call call) {
    Server& s = servers_[static_cast<size_t>(server)];
    if (s.lost) {
      late_errors_.push_back(server);  // a call on a dead reference errbacks (on the next I/O pass)
      return;
    }
    call.queued_at = clock();
    s.outgoing.push_back(std::move(call));
  }

  // The DYHB round: one query per server, all in flight at once. Each server's round-trip time, or nullopt
  // for a server that ended before it answered.
  Result<std::vector<std::optional<double>>> dyhb() {
    const double start = node_.now();
    std::vector<std::optional<double>> rtt(servers_.size());
    size_t settled = 0;
    for (size_t s = 0; s < servers_.size(); ++s) {
      Status sent = wire_.send(peer_of(static_cast<int>(s)), kDyhb, next_id_++, "");
      if (!sent.ok()) {
        mark_lost(s, sent.message());
        ++settled;
      }
    }
    for (std::uint64_t turn = 0; settled < servers_.size(); ++turn) {
      if (turn == kMaxTurns) return too_many_turns("the DYHB round");
      auto batch = node_.receive();
      if (!batch.ok()) return batch.status();
      const double now = node_.now();
      for (const Message& message : *batch) {
        const auto s = static_cast<size_t>(server_of(message.from));
        if (servers_[s].lost || rtt[s]) continue;
        if (message.kind == transport::kPeerEnded) {
          mark_lost(s, message.payload);
        } else if (message.kind == kDyhbAnswer) {
          rtt[s] = now - start;
        } else {
          return Status::Error("server " + std::to_string(s) + " answered DYHB with message kind " +
                               std::to_string(message.kind));
        }
        ++settled;
      }
    }
    return rtt;
  }

  // Runs turns until the download is over (or nothing can move it any more: the caller reports a stall).
  Status run(const share::Download& download) {
    for (std::uint64_t turn = 0;; ++turn) {
      if (download.result().done || !download.result().error.empty()) break;
      if (turn == kMaxTurns) return too_many_turns("the download");
      if (!queue_.empty()) queue_.drain_once();
      flush();
      if (queue_.empty() && outstanding() == 0) break;
      Status pass = io_pass(/*block=*/queue_.empty() && late_errors_.empty());
      if (!pass.ok()) return pass;
    }
    settle();
    return Status::OK();
  }

  // Says bye to every server still connected and adds up their reports (a server that ends first sends
  // none). Answers to calls still in flight when the download ended are dropped: nobody waits for them.
  Status collect_reports() {
    std::set<int> waiting;
    for (size_t s = 0; s < servers_.size(); ++s) {
      if (!servers_[s].lost && wire_.send(peer_of(static_cast<int>(s)), kBye, next_id_++, "").ok()) {
        waiting.insert(static_cast<int>(s));
      }
    }
    for (std::uint64_t turn = 0; !waiting.empty(); ++turn) {
      if (turn == kMaxTurns) return too_many_turns("the servers' reports");
      auto batch = node_.receive();
      if (!batch.ok()) return batch.status();
      for (const Message& message : *batch) {
        const int s = server_of(message.from);
        if (message.kind == transport::kPeerEnded) waiting.erase(s);
        if (message.kind != kReport) continue;
        auto report = decode_report(message.payload);
        if (!report.ok()) return report.status();
        for (const auto& [kind, bytes] : report->bytes_sent) result_.bytes_sent[kind] += bytes;
        result_.totals.server_cpu_s += report->cpu_s;
        waiting.erase(s);
      }
    }
    return Status::OK();
  }

  // CPU the reactor spends: it is busy for `seconds` more, computed when it next touches the network
  // (settle()). clock() is the time the work has reached.
  void charge(double seconds) {
    if (seconds > 0) busy_s_ += seconds;
  }
  double clock() { return node_.now() + busy_s_; }
  Timeline* timeline() const { return setup_.timeline; }
  const ChargedCosts& costs() const { return setup_.costs; }

 private:
  struct Server {
    std::vector<Call> outgoing;                            // this turn's calls
    std::map<std::uint64_t, std::vector<Call>> in_flight;  // message id -> its calls
    bool lost = false;
    std::string why_lost;
  };

  size_t outstanding() const {
    size_t count = late_errors_.size();
    for (const Server& s : servers_) count += s.in_flight.size();
    return count;
  }

  // The turn's calls, serialized (their CPU charged here: the reactor runs one thing at a time), one
  // message per server.
  void flush() {
    for (size_t s = 0; s < servers_.size(); ++s) {
      Server& server = servers_[s];
      if (server.outgoing.empty()) continue;
      std::vector<Call> calls = std::move(server.outgoing);
      server.outgoing.clear();
      std::vector<WireCall> wire;
      double tokens = 0;
      for (const Call& call : calls) {
        wire.push_back(call.wire);
        tokens += call_tokens(call.wire.readv, call.wire.spans.size());
      }
      charge_calls("serialize calls", tokens, setup_.costs.client_seconds_per_message);
      settle();
      const std::uint64_t id = next_id_++;
      server.in_flight[id] = std::move(calls);
      Status sent = wire_.send(peer_of(static_cast<int>(s)), kCalls, id, encode_calls(wire));
      if (!sent.ok()) {
        lose(s, sent.message());
        continue;
      }
      result_.totals.call_messages += 1;
    }
  }

  // One message's calls written, or their answers parsed: the table's cost per token, plus `own_s` (the sim's
  // charge for the real client's own cost per message, as the message is written).
  void charge_calls(const char* what, double tokens, double own_s = 0) {
    const double seconds = tokens * setup_.costs.seconds_per_token + own_s;
    result_.totals.tokens += static_cast<std::uint64_t>(tokens);
    result_.totals.call_cpu_s += seconds;
    const double start = clock();
    charge(seconds);
    if (timeline() != nullptr && seconds > 0) timeline()->span("foolscap", what, start, clock());
  }

  // The sim's charge for the real run's own time per pass that waited (the round's wake-ups).
  void charge_wait() {
    const double seconds = setup_.costs.client_seconds_per_wait;
    if (seconds <= 0) return;
    const double start = clock();
    charge(seconds);
    if (timeline() != nullptr) timeline()->span("foolscap", "wake-ups", start, clock());
  }

  void settle() {
    if (busy_s_ > 0) node_.compute(busy_s_);
    busy_s_ = 0;
  }

  Status io_pass(bool block) {
    std::vector<int> late = std::move(late_errors_);
    late_errors_.clear();
    for (int s : late) buckets_[static_cast<size_t>(s)]->errback(dead_reference(static_cast<size_t>(s)));
    settle();
    const double asked_at = node_.now();
    auto received = node_.receive(block ? transport::kForever : asked_at);
    if (!received.ok()) return received.status();
    std::vector<Message> batch = std::move(received).value();
    if (node_.now() > asked_at) {  // nothing was due: the pass waited (in the sim, exactly; real: ns later)
      result_.totals.waits += 1;
      charge_wait();
    }
    if (block && setup_.poll_window_s > 0) {
      node_.sleep_until(node_.now() + setup_.poll_window_s);
      auto more = node_.receive(node_.now());
      if (!more.ok()) return more.status();
      for (Message& message : std::move(more).value()) batch.push_back(std::move(message));
    }
    for (Message& message : batch) {
      const auto s = static_cast<size_t>(server_of(message.from));
      if (message.kind == transport::kPeerEnded) {
        lose(s, message.payload);
        continue;
      }
      Server& server = servers_[s];
      auto sent = server.in_flight.find(message.id);
      if (message.kind != kAnswers || sent == server.in_flight.end()) {
        return Status::Error("server " + std::to_string(s) + " sent an unexpected message (kind " +
                             std::to_string(message.kind) + ", id " + std::to_string(message.id) + ")");
      }
      auto answers = decode_answers(message.payload);
      if (!answers.ok()) return answers.status();
      std::vector<Call> calls = std::move(sent->second);
      server.in_flight.erase(sent);
      if (answers->size() != calls.size()) {
        return Status::Error("server " + std::to_string(s) + " answered " + std::to_string(answers->size()) +
                             " of " + std::to_string(calls.size()) + " calls");
      }
      double tokens = 0;
      for (const Call& call : calls) tokens += answer_tokens(call.wire.readv, call.wire.spans.size());
      charge_calls("parse answers", tokens);
      for (size_t i = 0; i < calls.size(); ++i) {
        if (timeline() != nullptr) span_read(s, calls[i], (*answers)[i]);
        calls[i].on_reply(std::move((*answers)[i]));
      }
    }
    return Status::OK();
  }

  void span_read(size_t s, const Call& call, const std::vector<std::string>& data) {
    std::uint64_t bytes = 0;
    for (const auto& d : data) bytes += d.size();
    const Span& first = call.wire.spans.front();
    timeline()->span(server_name(static_cast<int>(s)), "read " + std::to_string(call.wire.spans.size()),
                     call.queued_at, clock(),
                     "[" + std::to_string(first.start) + ":+" + std::to_string(first.length) + "] " +
                         std::to_string(bytes) + " B");
  }

  std::string dead_reference(size_t s) const {
    return "DeadReferenceError: the connection to server " + std::to_string(s) + " was lost (" +
           servers_[s].why_lost + ")";
  }

  void mark_lost(size_t s, const std::string& why) {
    servers_[s].lost = true;
    servers_[s].why_lost = why;
  }

  // The server's connection ended: each of its outstanding calls errbacks (Foolscap's notifyOnDisconnect).
  void lose(size_t s, const std::string& why) {
    mark_lost(s, why);
    auto messages = std::move(servers_[s].in_flight);
    servers_[s].in_flight.clear();
    for (auto& [id, calls] : messages) {
      for (size_t i = 0; i < calls.size(); ++i) buckets_[s]->errback(dead_reference(s));
    }
  }

  Node& node_;
  const DownloadSetup& setup_;
  DownloadResult& result_;
  Wire wire_;
  std::vector<Server> servers_;
  std::vector<Bucket*> buckets_;
  share::EventualQueue queue_;
  std::vector<int> late_errors_;  // servers of calls made after their connection ended
  std::uint64_t next_id_ = 1;
  double busy_s_ = 0;  // CPU charged and not yet computed
};

void Bucket::read(std::uint64_t start, std::uint64_t length, std::function<void(std::string)> on_reply) {
  reactor_.queue_call(server_, Call{WireCall{false, {Span{start, length}}},
                                    [on_reply = std::move(on_reply)](std::vector<std::string> data) {
                                      on_reply(data.empty() ? std::string() : std::move(data.front()));
                                    }});
}

void Bucket::readv(std::vector<Span> spans, OnReply on_reply) {
  reactor_.queue_call(server_, Call{WireCall{true, std::move(spans)}, std::move(on_reply)});
}

// A storage server's body: answers DYHB, then every message of calls in one go (charged its tokens on its
// own CPU), until the downloader says bye (it sends its report and ends) or goes away.
Status serve(Node& node, const share::EncodedFile& file, int server, double seconds_per_token) {
  ServerReport report;
  Wire wire(node, report.bytes_sent);
  for (std::uint64_t turn = 0;; ++turn) {
    if (turn == kMaxTurns) return too_many_turns("a server");
    auto batch = node.receive();
    if (!batch.ok()) return batch.status();
    for (const Message& message : *batch) {
      Status sent = Status::OK();
      switch (message.kind) {
        case transport::kPeerEnded:
          return Status::OK();  // the downloader went away: nothing more to serve
        case kDyhb:
          sent = wire.send(0, kDyhbAnswer, message.id, "");
          break;
        case kCalls: {
          auto calls = decode_calls(message.payload);
          if (!calls.ok()) return calls.status();
          double tokens = 0;
          for (const WireCall& call : *calls) {
            tokens +=
                call_tokens(call.readv, call.spans.size()) + answer_tokens(call.readv, call.spans.size());
          }
          // The server's CPU, on a host of its own: waited out (ChargedCosts).
          const double seconds = tokens * seconds_per_token;
          report.cpu_s += seconds;
          if (seconds > 0) node.sleep_until(node.now() + seconds);
          // Its share's bytes for every span, as EncodedFile::read produces them, straight into the answer.
          sent = wire.send(0, kAnswers, message.id,
                           encode_answers(*calls, [&file, server](const share::Span& span, std::string& out) {
                             file.append_read(server, span.start, span.length, out);
                           }));
          break;
        }
        case kBye:
          return node.send(0, kReport, message.id, encode_report(report));
        default:
          return Status::Error("unexpected message kind " + std::to_string(message.kind));
      }
      if (!sent.ok()) return sent;
    }
  }
}

}  // namespace

std::string server_name(int server) {
  return "server-" + std::to_string(server);
}

ChargedCosts charged_costs(const ShareOptions& options) {
  const CpuCosts cpu = cpu_costs(options);
  return {cpu.seconds_per_op,
          cpu.seconds_per_hashed_byte + options.native_ns_per_byte * 1e-9,
          cpu.seconds_per_decoded_byte,
          cpu.seconds_per_call / kReadTokens,
          options.native_message_cost_us * 1e-6,
          options.native_wait_cost_us * 1e-6};
}

Status run_downloader(Node& node, const DownloadSetup& setup, DownloadResult& result) {
  const share::EncodedFile& file = setup.file;
  for (int s = 0; s < setup.servers; ++s) {
    const double per_token = setup.costs.seconds_per_token;
    auto peer = node.spawn(server_name(s),
                           [&file, s, per_token](Node& server) { return serve(server, file, s, per_token); });
    if (!peer.ok()) return peer.status();
    if (*peer != peer_of(s)) return Status::Error(server_name(s) + " is peer " + std::to_string(*peer));
  }

  Reactor reactor(node, setup, result);
  share::DownloadNode download_node(file.cap, setup.segment_size_guess);
  std::vector<std::unique_ptr<Bucket>> buckets;
  std::vector<std::unique_ptr<share::Share>> shares;
  DeliveredBytes delivered(file);
  Totals& totals = result.totals;
  uint64_t segment = 0;
  double segment_started = 0;

  const double start = node.now();
  auto rtt = reactor.dyhb();
  if (!rtt.ok()) return rtt.status();
  std::vector<share::Share*> in_use;
  for (int s = 0; s < setup.servers; ++s) {
    buckets.push_back(std::make_unique<Bucket>(reactor, s));
    reactor.set_bucket(s, buckets.back().get());
    const auto& server_rtt = (*rtt)[static_cast<size_t>(s)];
    if (!server_rtt) continue;  // no DYHB answer: the server holds no share we use
    const double rtt_step = setup.dyhb_rtt_resolution_s;
    const double compared_rtt = rtt_step > 0 ? std::floor(*server_rtt / rtt_step) * rtt_step : *server_rtt;
    shares.push_back(std::make_unique<share::Share>(download_node, s, *buckets.back(), reactor.queue(),
                                                    setup.loop, compared_rtt));
    shares.back()->set_loop_hook([&reactor, &totals, &segment, s](const share::LoopReport& report) {
      const double begin = reactor.clock();
      const double satisfy = static_cast<double>(report.satisfaction_ops) * reactor.costs().seconds_per_op;
      const double desire = static_cast<double>(report.desire_ops) * reactor.costs().seconds_per_op;
      reactor.charge(satisfy + desire);
      totals.cpu_s += satisfy + desire;
      if (report.wasted) totals.wasted_cpu_s += satisfy + desire;
      if (Timeline* t = reactor.timeline()) {
        const std::string track = "sh" + std::to_string(s) + " loop";
        const std::string detail = "segment " + std::to_string(segment);
        t->span(track, report.wasted ? "wasted loop" : "loop", begin, begin + satisfy + desire, detail);
        t->span(track + " passes", "get_satisfaction", begin, begin + satisfy, detail);
        t->span(track + " passes", "desire", begin + satisfy, begin + satisfy + desire, detail);
      }
    });
    in_use.push_back(shares.back().get());
  }

  share::Download download(download_node, in_use, reactor.queue());
  download.decode_hook = [&reactor, &totals](const share::DecodeWork& work) {
    const double begin = reactor.clock();
    const double seconds =
        static_cast<double>(work.segment_bytes) * reactor.costs().seconds_per_hashed_byte +
        static_cast<double>(work.multiplied_bytes()) * reactor.costs().seconds_per_decoded_byte;
    reactor.charge(seconds);
    totals.decode_cpu_s += seconds;
    totals.rebuilt_blocks += static_cast<std::uint64_t>(work.rebuilt_blocks);
    if (Timeline* t = reactor.timeline()) {
      t->span("download", "decode", begin, reactor.clock(),
              std::to_string(work.rebuilt_blocks) + " of " + std::to_string(work.k) + " blocks rebuilt");
    }
  };
  download.on_data = [&delivered](const std::string& data) { delivered.add(data); };
  download.segment_hook = [&](uint64_t segnum, bool started) {
    if (started) {
      segment = segnum;
      segment_started = reactor.clock();
    } else if (Timeline* t = reactor.timeline()) {
      t->span("segments", "segment " + std::to_string(segnum), segment_started, reactor.clock());
    }
  };
  download.start();
  Status ran = reactor.run(download);
  const std::string failure = ran.ok() ? download_failure(download.result(), file, delivered) : ran.message();
  totals.done_at = node.now() - start;
  for (const auto& share : shares) {
    result.shares += share->stats();
    if (!share->is_alive()) ++result.dead_shares;
    if (share->stats().bytes_read > 0) result.shares_read.push_back(share->shnum());
  }
  if (!failure.empty()) return Status::Error(failure);
  return reactor.collect_reports();
}

}  // namespace perflab::share_study
