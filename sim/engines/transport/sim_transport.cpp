// See sim_transport.h.
#include "sim/engines/transport/sim_transport.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include <simgrid/s4u.hpp>

#include "sim/engines/simgrid_world.h"
#include "sim/engines/timeline.h"

namespace perflab::transport {
namespace {

namespace s4u = simgrid::s4u;

// A message's delivery is an actor of its own (it waits for the bytes before it, then travels): a few
// calls deep, so it takes a small stack instead of SimGrid's default 8 MiB, whose mapping and unmapping
// per message cost more than the simulation itself.
constexpr unsigned kMessageStackBytes = 64 * 1024;

class SimNode;

// What the nodes of one run share: the world, every node by peer number, and each direction's queue.
struct SimRun {
  SimRun(const RunContext& context, const std::vector<std::string>& host_names)
      : world(context, host_names), names(host_names), bandwidth(context.network.bandwidth) {}

  SimGridWorld world;
  std::vector<std::string> names;
  double bandwidth;                             // bytes/s; 0: no bandwidth limit
  std::vector<std::unique_ptr<SimNode>> nodes;  // by peer number
  // Per direction (from, to): when the last byte of the last message leaves, and the actor delivering it.
  std::map<std::pair<Peer, Peer>, double> leaves_at;
  std::map<std::pair<Peer, Peer>, s4u::ActorPtr> last_delivery;
};

class SimNode : public Node {
 public:
  SimNode(SimRun& run, Peer self, std::string name)
      : run_(run), self_(self), name_(std::move(name)), host_(run.world.host(name_)) {}

  double now() override { return SimGridWorld::now(); }

  void sleep_until(double deadline) override {
    const double left = deadline - now();
    if (left > 0) s4u::this_actor::sleep_for(left);
  }

  void compute(double seconds) override {
    if (seconds > 0) s4u::this_actor::sleep_for(seconds);
  }

  Status send(Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) override {
    if (to < 0 || to >= static_cast<Peer>(run_.nodes.size()) || to == self_ || (self_ != 0 && to != 0)) {
      return Status::Error(name_ + " has no peer " + std::to_string(to));
    }
    auto message = std::make_shared<Message>(Message{self_, kind, id, std::move(payload)});
    const double bytes = static_cast<double>(message->wire_bytes());
    // One connection per direction: this message's bytes leave after the ones sent before it.
    double& leaves_at = run_.leaves_at[{self_, to}];
    const double start = std::max(now(), leaves_at);
    leaves_at = start + (run_.bandwidth > 0 ? bytes / run_.bandwidth : 0.0);
    SimNode* receiver = run_.nodes[static_cast<size_t>(to)].get();
    s4u::Host* from = host_;
    Timeline* timeline = run_.world.timeline();
    const std::string track = name_;
    run_.last_delivery[{self_, to}] =
        s4u::Actor::init("message", host_)
            ->set_stacksize(kMessageStackBytes)
            ->start([message, bytes, start, from, receiver, timeline, track] {
              s4u::Actor::self()->daemonize();
              const double wait = start - SimGridWorld::now();
              if (wait > 0) s4u::this_actor::sleep_for(wait);
              s4u::Comm::sendto(from, receiver->host_, static_cast<std::uint64_t>(bytes));
              if (timeline != nullptr) {
                timeline->span(
                    track, "message kind " + std::to_string(message->kind), start, SimGridWorld::now(),
                    std::to_string(static_cast<std::uint64_t>(bytes)) + " B to " + receiver->name_);
              }
              receiver->deliver(std::move(*message));
            });
    return Status::OK();
  }

  Result<std::vector<Message>> receive(double deadline) override {
    std::unique_lock<s4u::Mutex> lock(*mutex_);
    if (inbox_.empty() && deadline > now()) {
      const auto arrived = [this] { return !inbox_.empty(); };
      if (std::isinf(deadline)) {
        arrived_->wait(lock, arrived);
      } else {
        arrived_->wait_until(lock, deadline, arrived);
      }
    }
    // Messages that arrive at this same instant are delivered by actors that may not have run yet.
    lock.unlock();
    s4u::this_actor::yield();
    lock.lock();
    std::vector<Message> batch(std::make_move_iterator(inbox_.begin()),
                               std::make_move_iterator(inbox_.end()));
    inbox_.clear();
    return batch;
  }

  Result<Peer> spawn(const std::string& name, std::function<Status(Node&)> body) override {
    if (self_ != 0) return Status::Error("only the hub spawns nodes, not " + name_);
    if (std::find(run_.names.begin() + 1, run_.names.end(), name) == run_.names.end()) {
      return Status::Error("no simulated host for node " + name);
    }
    const auto peer = static_cast<Peer>(run_.nodes.size());
    run_.nodes.push_back(std::make_unique<SimNode>(run_, peer, name));
    SimNode* node = run_.nodes.back().get();
    SimRun* run = &run_;
    s4u::Actor::create(name, node->host_, [run, node, peer, body = std::move(body)] {
      s4u::Actor::self()->daemonize();  // it ends with the hub
      Status ended = body(*node);
      // The hub learns of the end after the messages the node sent before it, as a socket's close.
      if (auto last = run->last_delivery[{peer, 0}]) last->join();
      run->nodes[0]->deliver(
          Message{peer, kPeerEnded, 0, ended.ok() ? node->name_ + " ended" : ended.message()});
    });
    return peer;
  }

  void deliver(Message message) {
    std::unique_lock<s4u::Mutex> lock(*mutex_);
    inbox_.push_back(std::move(message));
    arrived_->notify_all();
  }

 private:
  SimRun& run_;
  Peer self_;
  std::string name_;
  s4u::Host* host_;
  s4u::MutexPtr mutex_ = s4u::Mutex::create();
  s4u::ConditionVariablePtr arrived_ = s4u::ConditionVariable::create();
  std::deque<Message> inbox_;
};

}  // namespace

Status run_on_simgrid(const RunContext& context, const std::vector<std::string>& names,
                      const std::function<Status(Node&)>& hub, SimLatency latency) {
  if (names.empty()) return Status::Error("a simulated run needs at least one node");
  SimRun run(context, names);
  if (latency == SimLatency::kPerLink) {
    // One stream per direction of each spawned node's link; a message's draw is made when its bytes start
    // to leave, and a direction's messages start in the order they were sent.
    auto streams = std::make_shared<std::map<std::pair<const s4u::Host*, const s4u::Host*>, Rng>>();
    const s4u::Host* hub_host = run.world.host(names[0]);
    for (size_t i = 1; i < names.size(); ++i) {
      const s4u::Host* node = run.world.host(names[i]);
      streams->emplace(std::make_pair(hub_host, node), context.rng(latency_stream(names[i], false)));
      streams->emplace(std::make_pair(node, hub_host), context.rng(latency_stream(names[i], true)));
    }
    run.world.draw_latency(
        [streams, spec = context.network.latency](const s4u::Host* from, const s4u::Host* to) {
          return spec.sample(streams->at({from, to}));
        });
  }
  std::optional<Status> result;
  s4u::Actor::create(names[0], run.world.host(names[0]), [&] {
    run.nodes.push_back(std::make_unique<SimNode>(run, 0, names[0]));
    result = hub(*run.nodes[0]);
  });
  run.world.run();
  if (!result) {
    return Status::Error("the simulation ended before " + names[0] +
                         " did: every node was waiting for a message");
  }
  return *result;
}

}  // namespace perflab::transport
