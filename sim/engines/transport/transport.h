// Transport: what a node of a study's run may do, written once for both engines. A study's driver (its
// agent, its servers) is a function of a Node; the SimGrid engine runs it on a simulated host
// (sim_transport.h), the real engine in a process on shaped loopback links (real_transport.h). The driver
// sees the same calls either way, as a LevelDB component sees only its Env (PosixEnv, or NewMemEnv in
// tests) and a turmoil host only its send/recv: so the sim charges the bytes the real engine sends, and a
// change to the driver is made once.
//
// A run is a star: the node that run_on_*() starts is the hub (peer 0); each node it spawns is a peer
// numbered 1, 2, ... in spawn order, and talks to the hub only. A node has one body, one event loop
// (receive() with a deadline is its only wait besides sleep_until and compute), and may start threads
// beside it (start_thread) that send, sleep and hand messages to each other through Channels, but never
// receive: what arrives is the body's to route.
//
// Messages between two nodes leave in the order they are sent (one connection, as TCP): each waits for the
// bytes before it to leave, at the [network] bandwidth, then travels the one-way latency drawn from
// [network]. Its size is its real size: Message::kHeaderBytes plus the payload.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/common/status.h"

namespace perflab::transport {

using Peer = int;  // 0: the hub; 1, 2, ...: the spawned nodes, in spawn order

struct Message {
  Peer from = 0;           // on receive: who sent it
  std::uint32_t kind = 0;  // the study's message kind; kPeerEnded is the transport's own
  std::uint64_t id = 0;    // the study's: e.g. which request a reply answers
  std::string payload;     // the real bytes

  static constexpr std::size_t kHeaderBytes =
      28;  // kind, id, due time, size: sim/engines/real/loopback_socket.h
  std::size_t wire_bytes() const { return kHeaderBytes + payload.size(); }
};

// A message of this kind is the transport telling that peer `from` ended; its payload says how.
inline constexpr std::uint32_t kPeerEnded = 0;

inline constexpr double kForever = std::numeric_limits<double>::infinity();

// The named stream (sim/study/seeding.h) one direction of a spawned node's link draws its messages'
// latencies from, one draw per message in send order: "transport.latency.server-3.down" (hub to node) and
// ".up" (node to hub). The real engine always draws so; the SimGrid engine when run with
// SimLatency::kPerLink (sim_transport.h), so that both engines give the same message the same latency.
inline std::string latency_stream(const std::string& node, bool to_hub) {
  return "transport.latency." + node + (to_hub ? ".up" : ".down");
}

// A queue of messages between the threads of one node: a study's own hand-offs (the calls an executor's
// workers take, a reply the node's body routes to the thread waiting for it). Nothing is sent on a wire.
class Channel {
 public:
  virtual ~Channel() = default;
  // Appends `message`; never waits.
  virtual void put(Message message) = 0;
  // The oldest message, once there is one. An error when none comes for the engine's idle timeout.
  virtual Result<Message> take() = 0;
};

class Node {
 public:
  virtual ~Node() = default;

  // Seconds since the run began (simulated or wall-clock), the same clock on every node of the run.
  virtual double now() = 0;
  // Waits until now() >= `deadline`; returns at once if it has passed.
  virtual void sleep_until(double deadline) = 0;
  // Spends `seconds` of this node's CPU: the work a model charges (a JVM defining a class).
  virtual void compute(double seconds) = 0;

  // Sends `payload` to `to`; returns once it is on its way (it does not wait for delivery).
  virtual Status send(Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) = 0;
  // Every message due now, from every peer, in arrival order: one batch, as one turn of an event loop
  // sees everything that arrived at the same instant. Waits until at least one is due or until
  // `deadline` (then an empty batch). An error when nothing arrives for the engine's idle timeout.
  virtual Result<std::vector<Message>> receive(double deadline = kForever) = 0;

  // Starts node `name` running `body` on its own Node (the real engine forks a process named `name`);
  // returns its peer number. Only the hub spawns. A body that fails ends its node with that error.
  virtual Result<Peer> spawn(const std::string& name, std::function<Status(Node&)> body) = 0;

  // Starts a thread of this node running `body` beside the node's body (an application thread, an
  // executor's worker): the SimGrid engine runs an actor on the node's host, the real engine a thread of
  // the node's process. It may call now, sleep_until, compute and send (the real engine's links take one
  // sender at a time), and a Channel's put and take; not receive or spawn. Start threads after spawning
  // (the real engine forks, which a process with threads must not). The engine joins them before the run
  // returns; a body must end on its own (a Channel's message telling it to).
  virtual Status start_thread(const std::string& name, std::function<void()> body) = 0;
  // Waits until every thread this node started has returned.
  virtual void join_threads() = 0;
  // A new, empty channel between this node's threads.
  virtual std::unique_ptr<Channel> channel() = 0;
};

// A Node that forwards every call to another (as LevelDB's EnvWrapper): a decorator overrides only the calls
// it changes (a test's node that dies on a message, or drops one).
class NodeWrapper : public Node {
 public:
  explicit NodeWrapper(Node& target) : target_(target) {}
  double now() override { return target_.now(); }
  void sleep_until(double deadline) override { target_.sleep_until(deadline); }
  void compute(double seconds) override { target_.compute(seconds); }
  Status send(Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) override {
    return target_.send(to, kind, id, std::move(payload));
  }
  Result<std::vector<Message>> receive(double deadline) override { return target_.receive(deadline); }
  Result<Peer> spawn(const std::string& name, std::function<Status(Node&)> body) override {
    return target_.spawn(name, std::move(body));
  }
  Status start_thread(const std::string& name, std::function<void()> body) override {
    return target_.start_thread(name, std::move(body));
  }
  void join_threads() override { target_.join_threads(); }
  std::unique_ptr<Channel> channel() override { return target_.channel(); }

 protected:
  Node& target() { return target_; }

 private:
  Node& target_;
};

}  // namespace perflab::transport
