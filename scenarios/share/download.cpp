// Sim engine driver: one immutable download on SimGrid, with Twisted/Foolscap event-loop semantics.
//
// Hosts: the client (the star's hub) and n storage servers, one share each. The client is one actor, the
// reactor; every turn it
//   1. drains the eventual-send queue once (Foolscap's eventually(): Share.loop(), the fetcher's loop,
//      segment delivery); anything queued meanwhile waits for the next turn;
//   2. writes out the remote calls queued during the turn: each read() or readv() is its own Foolscap
//      call with its own framing, and the calls of one turn to one server leave as one message (Twisted's
//      transport.write only buffers; the reactor sends the buffer when the turn is over: abstract.py
//      write()/doWrite() in Twisted 11.0, NOTES.md);
//   3. runs one I/O pass: every message that has arrived (at this instant, or within poll_window of the
//      first when it had to wait) has its answers parsed and their callbacks run synchronously — the data
//      is stored and schedule_loop() is called, as Share._got_data and _trigger_loop do over TCP.
// A server answers all the calls of one message in one turn (foolscap broker.py scheduleCall/doNextCall:
// one eventual doNextCall per call, all queued before the turn runs) and its answers leave as one message,
// so the answers to one loop()'s calls arrive together. Before the download, a DYHB query to every server
// gives the round-trip times the fetcher sorts shares by.
// CPU: every loop() is charged its counted span operations x the calibration's cost per operation, each
// decoded segment its bytes x the cost per byte, each remote call its Banana tokens x the cost per token
// (call_cost.h) on the client (serializing the call, parsing the answer) and on its server (parsing,
// serializing the answer) — sleep_for on the reactor: one CPU, as in Tahoe; servers have their own. The
// reactor sleeps what it was charged only when it next sends or polls (Reactor::charge), so a turn's
// loop() passes cost one SimGrid event, not one each.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/share/fetcher.h"
#include "models/share/share.h"
#include "scenarios/share/call_cost.h"
#include "scenarios/share/share_study.h"
#include "sim/sim_world.h"
#include "sim/timeline.h"

namespace perflab::share_study {
namespace {

namespace s4u = simgrid::s4u;
using share::Span;

// One remote read()/readv() and, once the server has answered, its data.
struct Read {
  bool readv = false;
  std::vector<Span> spans;
  std::vector<std::string> data;
  std::function<void(std::vector<std::string>)> on_reply;
  double sent_at = 0;
};

struct Batch {
  int server = 0;
  std::vector<Read> reads;
  bool dyhb = false;  // a "do you have block?" query
  double sent_at = 0;
};

class Reactor;

// The client's remote reference to one server's bucket: reads wait in the reactor until the turn ends.
class SimBucket : public share::RemoteBucket {
 public:
  SimBucket(Reactor& reactor, int server) : reactor_(reactor), server_(server) {}
  void read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) override;
  void readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) override;

 private:
  Reactor& reactor_;
  int server_;
};

struct Costs {
  double seconds_per_op;
  double seconds_per_byte;
  double seconds_per_token;  // per Banana token of a remote call, on each side
};

double call_bytes(const Read& read) {
  return kCallBytes + (read.readv ? kVectorSpanBytes * static_cast<double>(read.spans.size()) : 0);
}

class Reactor {
 public:
  Reactor(SimWorld& world, int servers, double poll_window, Costs costs, Totals& totals)
      : world_(world),
        poll_window_(poll_window),
        costs_(costs),
        totals_(totals),
        client_box_(s4u::Mailbox::by_name("client")),
        outgoing_(static_cast<size_t>(servers)) {
    for (int s = 0; s < servers; ++s)
      server_boxes_.push_back(s4u::Mailbox::by_name("server-" + std::to_string(s)));
  }

  void queue_read(int server, Read read) {
    outgoing_[static_cast<size_t>(server)].push_back(std::move(read));
  }
  share::EventualQueue& queue() { return queue_; }

  // The DYHB round: one query per server, all in flight at once; returns each server's round-trip time.
  std::vector<double> dyhb() {
    std::vector<double> rtt(outgoing_.size(), 0);
    double start = SimWorld::now();
    for (size_t s = 0; s < outgoing_.size(); ++s) {
      auto batch = std::make_unique<Batch>();
      batch->server = static_cast<int>(s);
      batch->dyhb = true;
      world_.post(server_box(static_cast<int>(s)), std::move(batch), kCallBytes);
    }
    for (size_t got = 0; got < outgoing_.size(); ++got) {
      auto reply = SimWorld::receive<Batch>(client_box());
      rtt[static_cast<size_t>(reply->server)] = SimWorld::now() - start;
    }
    return rtt;
  }

  // Runs turns until the download is over (or nothing can move it any more).
  void run(const share::Download& download) {
    while (!download.result().done && download.result().error.empty()) {
      if (!queue_.empty()) queue_.drain_once();
      flush();
      if (queue_.empty() && in_flight_ == 0) break;  // stalled: reported by the caller
      io_pass(/*block=*/queue_.empty());
    }
    settle();
  }

  // CPU the reactor spends: it is busy for `seconds` more. The sleep that stands for it is taken only when
  // the reactor next touches the network (settle()): nothing it computes in between depends on the
  // simulated clock, so one sleep for a turn's loop(), decode and parse charges gives the same times (up
  // to rounding) with a fraction of SimGrid's events. clock() is the time the work has reached.
  void charge(double seconds) {
    if (seconds > 0) busy_s_ += seconds;
  }
  double clock() const { return SimWorld::now() + busy_s_; }
  Timeline* timeline() const { return world_.timeline(); }
  const Costs& costs() const { return costs_; }

  s4u::Mailbox* client_box() const { return client_box_; }
  s4u::Mailbox* server_box(int s) const { return server_boxes_[static_cast<size_t>(s)]; }

 private:
  // The turn's calls, serialized (their CPU charged here: the reactor runs one thing at a time) and sent.
  void flush() {
    for (size_t s = 0; s < outgoing_.size(); ++s) {
      if (outgoing_[s].empty()) continue;
      auto batch = std::make_unique<Batch>();
      batch->server = static_cast<int>(s);
      batch->reads = std::move(outgoing_[s]);
      outgoing_[s].clear();
      double bytes = 0;
      double tokens = 0;
      for (const Read& read : batch->reads) {
        bytes += call_bytes(read);
        tokens += call_tokens(read.readv, read.spans.size());
      }
      charge_calls("serialize calls", tokens);
      settle();
      batch->sent_at = SimWorld::now();
      ++in_flight_;
      world_.post(server_box(static_cast<int>(s)), std::move(batch), bytes);
    }
  }

  void charge_calls(const char* what, double tokens) {
    double seconds = tokens * costs_.seconds_per_token;
    totals_.tokens += static_cast<uint64_t>(tokens);
    totals_.call_cpu_s += seconds;
    double start = clock();
    charge(seconds);
    if (timeline() != nullptr && seconds > 0) timeline()->span("foolscap", what, start, clock());
  }

  void settle() {
    if (busy_s_ > 0) s4u::this_actor::sleep_for(busy_s_);
    busy_s_ = 0;
  }

  void io_pass(bool block) {
    std::vector<std::unique_ptr<Batch>> arrived;
    if (block) {
      // The reactor waits for the first answer once the work charged so far is done: it waits from now,
      // and if the answer came before that work would have ended, sleeps the rest of it and poll_window in
      // one sleep.
      double busy_until = clock();
      busy_s_ = 0;
      arrived.push_back(SimWorld::receive<Batch>(client_box()));
      double rest = std::max(0.0, busy_until - SimWorld::now()) + poll_window_;
      if (rest > 0) s4u::this_actor::sleep_for(rest);
      s4u::this_actor::yield();  // let everything that completes at this instant land
    } else {
      settle();
    }
    while (client_box()->ready()) arrived.push_back(SimWorld::receive<Batch>(client_box()));
    for (auto& batch : arrived) {
      --in_flight_;
      double tokens = 0;
      for (const Read& read : batch->reads) tokens += answer_tokens(read.readv, read.spans.size());
      charge_calls("parse answers", tokens);
      for (Read& read : batch->reads) {
        if (timeline() != nullptr) {
          uint64_t bytes = 0;
          for (const auto& d : read.data) bytes += d.size();
          timeline()->span("server-" + std::to_string(batch->server),
                           "read " + std::to_string(read.spans.size()), read.sent_at, clock(),
                           "[" + std::to_string(read.spans.front().start) + ":+" +
                               std::to_string(read.spans.front().length) + "] " + std::to_string(bytes) +
                               " B");
        }
        read.on_reply(std::move(read.data));
      }
    }
  }

  SimWorld& world_;
  double poll_window_;
  Costs costs_;
  Totals& totals_;
  s4u::Mailbox* client_box_;
  std::vector<s4u::Mailbox*> server_boxes_;  // looked up once: by_name builds a string and searches a map
  share::EventualQueue queue_;
  std::vector<std::vector<Read>> outgoing_;
  int in_flight_ = 0;
  double busy_s_ = 0;  // CPU charged and not yet slept
};

void SimBucket::read(uint64_t start, uint64_t length, std::function<void(std::string)> on_reply) {
  Read read;
  read.spans = {Span{start, length}};
  read.on_reply = [on_reply = std::move(on_reply)](std::vector<std::string> data) {
    on_reply(std::move(data.at(0)));
  };
  read.sent_at = reactor_.clock();
  reactor_.queue_read(server_, std::move(read));
}

void SimBucket::readv(std::vector<Span> spans, std::function<void(std::vector<std::string>)> on_reply) {
  Read read;
  read.readv = true;
  read.spans = std::move(spans);
  read.on_reply = std::move(on_reply);
  read.sent_at = reactor_.clock();
  reactor_.queue_read(server_, std::move(read));
}

// A storage server: parses each message's calls, answers them all in one turn (charged its tokens x the
// cost per token on its own CPU), the answers in one message. The bytes of its share are produced as it
// sends them (EncodedFile::read).
void serve(SimWorld& world, s4u::Mailbox* inbox, s4u::Mailbox* client, int server,
           const share::EncodedFile& file, double seconds_per_token, double& server_cpu_s) {
  s4u::Actor::self()->daemonize();
  for (;;) {
    auto batch = SimWorld::receive<Batch>(inbox);
    double bytes = kReplyBytes;
    double tokens = 0;
    for (Read& read : batch->reads) {
      tokens += call_tokens(read.readv, read.spans.size()) + answer_tokens(read.readv, read.spans.size());
      bytes += kReplyBytes;
      for (const Span& span : read.spans) {
        std::string data = file.read(server, span.start, span.length);
        bytes += static_cast<double>(data.size()) + (read.readv ? kVectorDataBytes : 0);
        read.data.push_back(std::move(data));
      }
    }
    double seconds = tokens * seconds_per_token;
    server_cpu_s += seconds;
    if (seconds > 0) s4u::this_actor::sleep_for(seconds);
    world.post(client, std::move(batch), bytes);
  }
}

}  // namespace

Result<DownloadResult> run_download(const RunContext& context) {
  const ShareOptions o = knobs().options(context.params);
  const auto& file = context.inputs.get<share::EncodedFile>();
  const share::LoopPolicy policy = o.loop;
  const int n = static_cast<int>(o.n);
  CpuCosts cpu = cpu_costs(o);
  Costs costs{cpu.seconds_per_op, cpu.seconds_per_byte, cpu.seconds_per_call / kReadTokens};

  std::vector<std::string> hosts = {"client"};
  for (int s = 0; s < n; ++s) hosts.push_back("server-" + std::to_string(s));
  SimWorld world(context, hosts);
  Totals totals;
  Reactor reactor(world, n, o.poll_window_s, costs, totals);
  share::DownloadNode node(file.cap, o.segment_size_guess);
  std::vector<std::unique_ptr<SimBucket>> buckets;
  std::vector<std::unique_ptr<share::Share>> shares;
  DeliveredBytes delivered(file);
  std::string stall;

  s4u::Actor::create("client", world.host("client"), [&] {
    reactor.client_box()->set_receiver(s4u::Actor::self());
    std::vector<double> rtt = reactor.dyhb();
    std::vector<share::Share*> in_use;
    uint64_t segment = 0;
    double segment_started = 0;
    for (int s = 0; s < n; ++s) {
      buckets.push_back(std::make_unique<SimBucket>(reactor, s));
      shares.push_back(std::make_unique<share::Share>(node, s, *buckets.back(), reactor.queue(), policy,
                                                      rtt[static_cast<size_t>(s)]));
      share::Share* sh = shares.back().get();
      sh->set_loop_hook([&reactor, &totals, &segment, s](const share::LoopReport& report) {
        double start = reactor.clock();
        double satisfy = static_cast<double>(report.satisfaction_ops) * reactor.costs().seconds_per_op;
        double desire = static_cast<double>(report.desire_ops) * reactor.costs().seconds_per_op;
        reactor.charge(satisfy + desire);
        totals.cpu_s += satisfy + desire;
        if (report.wasted) totals.wasted_cpu_s += satisfy + desire;
        if (Timeline* t = reactor.timeline()) {
          std::string track = "sh" + std::to_string(s) + " loop";
          std::string detail = "segment " + std::to_string(segment);
          t->span(track, report.wasted ? "wasted loop" : "loop", start, start + satisfy + desire, detail);
          t->span(track + " passes", "get_satisfaction", start, start + satisfy, detail);
          t->span(track + " passes", "desire", start + satisfy, start + satisfy + desire, detail);
        }
      });
      in_use.push_back(sh);
    }
    share::Download download(node, in_use, reactor.queue());
    download.decode_hook = [&reactor](uint64_t bytes) {
      double start = reactor.clock();
      reactor.charge(static_cast<double>(bytes) * reactor.costs().seconds_per_byte);
      if (Timeline* t = reactor.timeline()) t->span("download", "decode", start, reactor.clock());
    };
    download.on_data = [&delivered](const std::string& segment) { delivered.add(segment); };
    download.segment_hook = [&](uint64_t segnum, bool started) {
      if (started) {
        segment = segnum;
        segment_started = reactor.clock();
      } else if (Timeline* t = reactor.timeline()) {
        t->span("segments", "segment " + std::to_string(segnum), segment_started, reactor.clock());
      }
    };
    download.start();
    reactor.run(download);
    stall = download_failure(download.result(), file, delivered);
    totals.done_at = SimWorld::now();
    reactor.client_box()->set_receiver(nullptr);
  });
  for (int s = 0; s < n; ++s) {
    const share::EncodedFile& stored = file;
    s4u::Actor::create("server-" + std::to_string(s), world.host("server-" + std::to_string(s)),
                       [&world, &reactor, s, &stored, &costs, &totals] {
                         serve(world, reactor.server_box(s), reactor.client_box(), s, stored,
                               costs.seconds_per_token, totals.server_cpu_s);
                       });
  }
  world.run();
  if (!stall.empty()) return Status::Error(stall);

  share::ShareStats sum;
  for (const auto& sh : shares) sum += sh->stats();
  return DownloadResult{sum, totals};
}

}  // namespace perflab::share_study
