// See real_transport.h.
#include "sim/engines/transport/real_transport.h"

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "sim/engines/real/frame_inbox.h"
#include "sim/engines/real/peer_process.h"
#include "sim/engines/real/realtime.h"
#include "sim/engines/real/shaped_link.h"
#include "sim/engines/real/wire_codec.h"

namespace perflab::transport {
namespace {

constexpr int kConnectTimeoutMs = 30'000;  // a node may open its files before it connects
constexpr int kIdleTimeoutMs = 120'000;    // a node hears from its peers at least this often
constexpr int kExitTimeoutMs = 10'000;     // after the hub's end, for the others to end
// A spawned node's last frame, never shown to the driver: how its body ended and how late its sleeps were.
constexpr std::uint32_t kNodeEnd = 0xFFFF'FFFF;

// The N of PERFLAB_REAL_FAULT="<name>-dies-after=N", or 0.
std::uint64_t dies_after(const std::string& name) {
  const char* fault = std::getenv(kFaultVariable);
  const std::string prefix = name + "-dies-after=";
  if (fault == nullptr || std::string(fault).rfind(prefix, 0) != 0) return 0;
  return std::strtoull(fault + prefix.size(), nullptr, 10);
}

struct NodeEnd {
  std::string error;  // empty: the body returned OK
  real::OversleepStats oversleep;
};

std::string encode_end(const NodeEnd& end) {
  return real::Writer()
      .put_bytes(end.error)
      .put(end.oversleep.sleeps)
      .put(end.oversleep.total_ns)
      .put(end.oversleep.max_ns)
      .take();
}

Result<NodeEnd> decode_end(const std::string& payload) {
  real::Reader r(payload);
  NodeEnd end;
  if (!r.get_bytes(end.error) || !r.get(end.oversleep.sleeps) || !r.get(end.oversleep.total_ns) ||
      !r.get(end.oversleep.max_ns) || !r.done()) {
    return real::malformed("node end");
  }
  return end;
}

// A channel between the threads of one process: a mutex, a condition variable and a queue.
class RealChannel : public Channel {
 public:
  void put(Message message) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(message));
    }
    ready_.notify_one();
  }
  Result<Message> take() override {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!ready_.wait_for(lock, std::chrono::milliseconds(kIdleTimeoutMs),
                         [this] { return !queue_.empty(); })) {
      return Status::Error("a thread waited " + std::to_string(kIdleTimeoutMs / 1000) +
                           " s for a message on its channel");
    }
    Message message = std::move(queue_.front());
    queue_.pop_front();
    return message;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Message> queue_;
};

class RealNode : public Node {
 public:
  RealNode(std::string name, const RunContext& context, std::int64_t epoch_ns, real::FrameInbox inbox)
      : name_(std::move(name)), context_(context), epoch_ns_(epoch_ns), inbox_(std::move(inbox)) {}
  ~RealNode() override { join_threads(); }
  RealNode(const RealNode&) = delete;
  RealNode& operator=(const RealNode&) = delete;

  double now() override { return static_cast<double>(real::monotonic_ns() - epoch_ns_) * 1e-9; }
  void sleep_until(double deadline) override { sleeper_.sleep_until(to_ns(deadline)); }
  void compute(double seconds) override { real::burn_cpu(seconds); }

  Status send(Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) override {
    auto link = links_.find(to);
    if (link == links_.end()) return Status::Error(name_ + " has no peer " + std::to_string(to));
    return link->second->send(kind, id, std::move(payload));
  }

  Result<std::vector<Message>> receive(double deadline) override {
    const std::int64_t wake_ns = std::isinf(deadline) ? 0 : std::max<std::int64_t>(1, to_ns(deadline));
    for (;;) {
      auto next = inbox_.next(/*block=*/true, kIdleTimeoutMs, wake_ns);
      if (!next.ok()) return next.status();
      std::vector<real::Arrival> arrivals = std::move(next).value();
      std::vector<Message> batch;
      for (auto& arrival : arrivals) {
        if (!arrival.frame) {
          ended_[arrival.link] = true;
          auto end = ends_.find(arrival.link);
          batch.push_back(
              Message{arrival.link, kPeerEnded, 0,
                      end != ends_.end() && !end->second.error.empty() ? end->second.error : arrival.ended});
          continue;
        }
        real::Frame& frame = *arrival.frame;
        if (frame.kind == kNodeEnd) {
          auto end = decode_end(frame.payload);
          if (!end.ok()) return end.status();
          ends_[arrival.link] = *end;
          continue;
        }
        if (++received_ == die_after_) raise(SIGKILL);
        batch.push_back(Message{arrival.link, frame.kind, frame.id, std::move(frame.payload)});
      }
      // A batch of nothing but transport frames is no turn for the driver: wait on, unless woken.
      if (!batch.empty() || arrivals.empty()) return batch;
    }
  }

  Result<Peer> spawn(const std::string& name, std::function<Status(Node&)> body) override {
    if (!is_hub_) return Status::Error("only the hub spawns nodes, not " + name_);
    if (!threads_.empty()) return Status::Error(name_ + " started threads before spawning " + name);
    auto listener = real::listen_loopback();
    if (!listener.ok()) return listener.status();
    const std::uint16_t port = listener->port;
    auto process = real::PeerProcess::spawn("perflab-" + name.substr(0, 7), [&] {
      links_.clear();  // this process's copies of the hub's sockets
      return run_spawned(name, port, body);
    });
    if (!process.ok()) return process.status();
    auto fd = real::accept_connection(*listener, kConnectTimeoutMs);
    if (!fd.ok()) {
      Status ended = process.value().poll_ended();
      return Status::Error(name +
                           " did not connect: " + (ended.ok() ? fd.status().message() : ended.message()));
    }
    const auto peer = static_cast<Peer>(children_.size() + 1);
    Status added = add_link(peer, std::move(fd).value(), latency_stream(name, /*to_hub=*/false));
    if (!added.ok()) return added;
    children_.push_back(Child{name, std::move(process).value()});
    return peer;
  }

  Status start_thread(const std::string& name, std::function<void()> body) override {
    try {
      threads_.emplace_back(std::move(body));
    } catch (const std::system_error& error) {
      return Status::Error(name_ + " cannot start thread " + name + ": " + error.what());
    }
    return Status::OK();
  }

  void join_threads() override {
    for (auto& thread : threads_) thread.join();
    threads_.clear();
  }

  std::unique_ptr<Channel> channel() override { return std::make_unique<RealChannel>(); }

  // After the hub's body: lets every spawned node end (after its last frames when the hub succeeded, at
  // once by closing the links when it failed), reaps them, and says how the first that failed ended. A node
  // whose end the hub's body was told of (kPeerEnded) was the hub's to judge: when the hub still succeeded,
  // that end fails nothing (a driver that recovers from a lost peer, as share's fetcher takes another share).
  Status finish(const Status& hub) {
    join_threads();  // the hub's threads end on their own (a channel's take() is bounded)
    const std::map<Peer, bool> judged = ended_;
    const std::int64_t until = real::monotonic_ns() + std::int64_t{kExitTimeoutMs} * 1'000'000;
    if (hub.ok()) {
      while (ended_.size() < children_.size() && real::monotonic_ns() < until) {
        auto drained = receive(static_cast<double>(until - epoch_ns_) * 1e-9);
        if (!drained.ok()) break;
      }
    }
    for (auto& link : links_) link.second->shut_down();
    std::string failed;  // the first node that did not end cleanly, unless the hub judged its end
    std::string first;   // the first node's end, named when the hub failed and every node ended cleanly
    for (size_t i = 0; i < children_.size(); ++i) {
      Child& child = children_[i];
      const auto left_ms =
          static_cast<int>(std::max<std::int64_t>(0, until - real::monotonic_ns()) / 1'000'000);
      Status exit = child.process.wait(left_ms);
      const std::string how = child.name + " process " + (exit.ok() ? std::string("ended") : exit.message());
      const bool hubs_to_judge = hub.ok() && judged.count(static_cast<Peer>(i + 1)) > 0;
      if (failed.empty() && !exit.ok() && !hubs_to_judge) failed = how;
      if (first.empty()) first = how;
    }
    if (failed.empty() && !hub.ok()) failed = first;
    if (failed.empty()) return hub;
    return Status::Error(failed + (hub.ok() ? "" : ": " + hub.message()));
  }

  real::OversleepStats oversleep() const {
    real::OversleepStats total = sleeper_.stats();
    total.add(inbox_.oversleep());
    for (const auto& end : ends_) total.add(end.second.oversleep);
    return total;
  }

  Status add_link(Peer peer, real::UniqueFd fd, const std::string& latency_stream) {
    auto link = std::make_unique<real::ShapedLink>(std::move(fd), context_.network,
                                                   context_.rng(latency_stream), sleeper_);
    Status added = inbox_.add(peer, link->fd());
    if (!added.ok()) return added;
    links_[peer] = std::move(link);
    return Status::OK();
  }

  bool is_hub_ = true;
  std::uint64_t die_after_ = 0;

 private:
  struct Child {
    std::string name;
    real::PeerProcess process;
  };

  std::int64_t to_ns(double t) const { return epoch_ns_ + static_cast<std::int64_t>(t * 1e9); }

  // In the forked process: connects to the hub, runs `body`, tells the hub how it ended; the exit status.
  int run_spawned(const std::string& name, std::uint16_t port, const std::function<Status(Node&)>& body) {
    auto inbox = real::FrameInbox::create();
    if (!inbox.ok()) return fail(name, inbox.status());
    RealNode node(name, context_, epoch_ns_, std::move(inbox).value());
    node.is_hub_ = false;
    node.die_after_ = dies_after(name);
    auto fd = real::connect_loopback(port);
    if (!fd.ok()) return fail(name, fd.status());
    Status linked = node.add_link(0, std::move(fd).value(), latency_stream(name, /*to_hub=*/true));
    if (!linked.ok()) return fail(name, linked);
    Status ended = body(node);
    node.join_threads();
    Status told =
        node.send(0, kNodeEnd, 0, encode_end({ended.ok() ? "" : ended.message(), node.oversleep()}));
    if (!ended.ok()) return fail(name, ended);
    return told.ok() ? 0 : fail(name, told);
  }

  static int fail(const std::string& name, const Status& status) {
    std::fprintf(stderr, "perflab: %s: %s\n", name.c_str(), status.message().c_str());
    return 3;
  }

  std::string name_;
  const RunContext& context_;
  std::int64_t epoch_ns_;
  real::DeadlineSleeper sleeper_;
  real::FrameInbox inbox_;
  std::map<Peer, std::unique_ptr<real::ShapedLink>> links_;
  std::vector<Child> children_;
  std::map<Peer, NodeEnd> ends_;
  std::map<Peer, bool> ended_;
  std::uint64_t received_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace

Result<RealRun> run_on_real(const RunContext& context, const std::string& name,
                            const std::function<Status(Node&)>& hub, bool realtime) {
  RealRun run;
  run.realtime =
      realtime && real::request_realtime_priority();  // before any process is forked: they inherit it
  auto inbox = real::FrameInbox::create();
  if (!inbox.ok()) return inbox.status();
  RealNode node(name, context, real::monotonic_ns(), std::move(inbox).value());
  Status ended = node.finish(hub(node));
  if (!ended.ok()) return ended;
  run.oversleep = node.oversleep();
  return run;
}

}  // namespace perflab::transport
