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

// Delivery. A message waits for the bytes sent before it on its direction to leave, then travels as a
// SimGrid communication, then lands in the receiver's inbox. A courier (a small SimGrid actor on the
// sender's host) does that for one message at a time; when it is done it waits in its direction's pool for
// the next one, instead of an actor being created and torn down per message (whose stack mapping and
// unmapping cost more than the simulation itself: tests/perf/README.md).
//
// Nothing here may move an event. SimGrid's clock advances from one event date to the next (the end of a
// sleep, of a communication's latency, of its transfer) by their differences, so every date must stay
// the same double: each sleep and each communication starts at the same simulated instant, for the same
// duration, and the latencies are drawn in the same order. Synchronisation between actors (semaphores,
// yields) takes no simulated time; it only decides which actor runs in which scheduling round of an
// instant, and so which messages one receive() returns together. The calls are chosen to keep those
// batches: a courier whose communication ends at an instant delivers in that instant's first round, and a
// receiver collects after every courier of that round has run (woken by the first delivery, or after one
// yield). Every committed simulation CSV (share, prefetch, the dispatcher's incident) and their stress
// variants came out byte for byte the same when the transport went from a mutex and condition variable
// per node to the semaphore below (tests/perf/README.md). tests/sim/sim_transport_test.cpp checks the
// delivery times, the batches and the reuse.
constexpr unsigned kCourierStackBytes = 64 * 1024;  // a few calls deep: not SimGrid's default 8 MiB

class SimNode;

// A channel between the actors of one host: SimGrid's actors take turns (one runs at a time, until its next
// simcall), so the queue needs no lock; the semaphore counts its messages and wakes takers in FIFO order.
class SimChannel : public Channel {
 public:
  void put(Message message) override {
    queue_.push_back(std::move(message));
    ready_->release();
  }
  Result<Message> take() override {
    ready_->acquire();
    Message message = std::move(queue_.front());
    queue_.pop_front();
    return message;
  }

 private:
  std::deque<Message> queue_;
  s4u::SemaphorePtr ready_ = s4u::Semaphore::create(0);
};

// One message on its way: what its courier needs.
struct Parcel {
  Message message;
  double bytes = 0;  // on the wire: header and payload
  double start = 0;  // when its first byte leaves (after the bytes before it on its direction)
  SimNode* receiver = nullptr;
};

struct Courier {
  s4u::ActorPtr actor;
  s4u::SemaphorePtr handed = s4u::Semaphore::create(0);  // released when it is handed a parcel
  std::optional<Parcel> parcel;
  bool busy = true;     // from being handed a parcel until it is back in its pool
  bool retire = false;  // someone waits for it to end (a node's end, after its last message): it ends
};

// One direction (from, to): one connection.
struct Direction {
  double leaves_at = 0;        // when the last byte of the last message sent leaves
  std::vector<Courier*> idle;  // couriers waiting for a parcel
  Courier* last = nullptr;     // the courier of the last message sent
};

// What the nodes of one run share: the world, every node by peer number, and each direction.
struct SimRun {
  SimRun(const RunContext& context, const std::vector<std::string>& host_names)
      : world(context, host_names),
        names(host_names),
        bandwidth(context.network.bandwidth),
        wake_up(context.wake_up) {}

  SimGridWorld world;
  std::vector<std::string> names;
  double bandwidth;                             // bytes/s; 0: no bandwidth limit
  double wake_up;                               // s after each wait that waited (RunContext::wake_up)
  std::vector<std::unique_ptr<SimNode>> nodes;  // by peer number
  std::map<std::pair<Peer, Peer>, Direction> directions;
  std::vector<std::unique_ptr<Courier>> couriers;
};

class SimNode : public Node {
 public:
  SimNode(SimRun& run, Peer self, std::string name)
      : run_(run), self_(self), name_(std::move(name)), host_(run.world.host(name_)) {}

  double now() override { return SimGridWorld::now(); }

  // A sleep with time left wakes late by the run's wake-up, as the real engine's DeadlineSleeper counts it
  // (sim/engines/real/deadline_sleeper.cpp); one that has nothing left does not sleep.
  void sleep_until(double deadline) override {
    const double left = deadline - now();
    if (left > 0) s4u::this_actor::sleep_for(left + run_.wake_up);
  }

  void compute(double seconds) override {
    if (seconds > 0) s4u::this_actor::sleep_for(seconds);
  }

  Status send(Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) override {
    if (to < 0 || to >= static_cast<Peer>(run_.nodes.size()) || to == self_ || (self_ != 0 && to != 0)) {
      return Status::Error(name_ + " has no peer " + std::to_string(to));
    }
    Parcel parcel{Message{self_, kind, id, std::move(payload)}, 0, 0,
                  run_.nodes[static_cast<size_t>(to)].get()};
    parcel.bytes = static_cast<double>(parcel.message.wire_bytes());
    // One connection per direction: this message's bytes leave after the ones sent before it.
    Direction& direction = run_.directions[{self_, to}];
    parcel.start = std::max(now(), direction.leaves_at);
    direction.leaves_at = parcel.start + (run_.bandwidth > 0 ? parcel.bytes / run_.bandwidth : 0.0);
    if (direction.idle.empty()) {
      Courier* courier = run_.couriers.emplace_back(std::make_unique<Courier>()).get();
      courier->parcel = std::move(parcel);
      courier->actor = s4u::Actor::init("message", host_)
                           ->set_stacksize(kCourierStackBytes)
                           ->start([this, courier, &direction] { courier_loop(*courier, direction); });
      direction.last = courier;
    } else {
      Courier* courier = direction.idle.back();
      direction.idle.pop_back();
      courier->parcel = std::move(parcel);
      courier->busy = true;
      courier->handed->release();  // it runs in the next round, as a new courier would
      direction.last = courier;
    }
    return Status::OK();
  }

  // Waiting forever (the usual case), the node sleeps on its semaphore, which the first delivery releases;
  // it then runs in the round after that delivery's, when every courier of that round has delivered. A
  // wait with a deadline is a condition variable's wait_until (its timeout is a sleep of the node's host),
  // and the deliveries meanwhile go through its mutex. A receive that waited then wakes late by the run's
  // wake-up, as the real engine's FrameInbox counts its timer's (sim/engines/real/frame_inbox.cpp); what
  // lands meanwhile is in the same batch, as the real inbox takes everything due when it wakes.
  Result<std::vector<Message>> receive(double deadline) override {
    const bool waits = inbox_.empty() && deadline > now();
    bool woken = false;
    if (waits) {
      if (std::isinf(deadline)) {
        waiting_ = true;
        wake_->acquire();
        woken = true;
      } else {
        std::unique_lock<s4u::Mutex> lock(*mutex_);
        timed_waiting_ = true;
        arrived_->wait_until(lock, deadline, [this] { return !inbox_.empty(); });
        timed_waiting_ = false;
      }
    }
    if (waits && run_.wake_up > 0) {
      s4u::this_actor::sleep_for(run_.wake_up);
      woken = false;  // woken by its own sleep, in a round that couriers of this instant may not have run in
    }
    // Not woken by a delivery: messages that arrive at this same instant are delivered by couriers that may
    // not have run yet in this round.
    if (!woken) s4u::this_actor::yield();
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
      if (Courier* last = run->directions[{peer, 0}].last) {
        if (last->busy) {
          last->retire = true;  // it ends after delivering, and the join returns then
          last->actor->join();
        } else {
          s4u::this_actor::yield();  // the call a join on a courier that had already ended made
        }
      }
      run->nodes[0]->deliver(
          Message{peer, kPeerEnded, 0, ended.ok() ? node->name_ + " ended" : ended.message()});
    });
    return peer;
  }

  Status start_thread(const std::string& name, std::function<void()> body) override {
    threads_.push_back(s4u::Actor::create(name, host_, [body = std::move(body)] {
      s4u::Actor::self()->daemonize();  // one the body did not join ends with the hub
      body();
    }));
    return Status::OK();
  }

  void join_threads() override {
    for (auto& thread : threads_) thread->join();
    threads_.clear();
  }

  std::unique_ptr<Channel> channel() override { return std::make_unique<SimChannel>(); }

  // A courier's life: carry the parcel it was handed, then wait in its direction's pool for the next.
  void courier_loop(Courier& courier, Direction& direction) {
    s4u::Actor::self()->daemonize();  // it ends with the hub
    for (;;) {
      carry(*courier.parcel);
      courier.parcel.reset();
      courier.busy = false;
      if (courier.retire) return;
      direction.idle.push_back(&courier);
      courier.handed->acquire();
    }
  }

  // Waits for the parcel's start, sends it over the simulated network and puts it in the receiver's inbox.
  void carry(Parcel& parcel) {
    const double wait = parcel.start - SimGridWorld::now();
    if (wait > 0) s4u::this_actor::sleep_for(wait);
    s4u::Comm::sendto(host_, parcel.receiver->host_, static_cast<std::uint64_t>(parcel.bytes));
    if (Timeline* timeline = run_.world.timeline()) {
      timeline->span(
          name_, "message kind " + std::to_string(parcel.message.kind), parcel.start, SimGridWorld::now(),
          std::to_string(static_cast<std::uint64_t>(parcel.bytes)) + " B to " + parcel.receiver->name_);
    }
    parcel.receiver->deliver(std::move(parcel.message));
  }

  void deliver(Message message) {
    if (timed_waiting_) {
      std::unique_lock<s4u::Mutex> lock(*mutex_);
      inbox_.push_back(std::move(message));
      arrived_->notify_all();
    } else {
      inbox_.push_back(std::move(message));
    }
    // Released once: the node takes every message delivered by the time it runs. (Checked after the mutex
    // too: a delivery that queued for it while the node left a wait with a deadline must not be missed by
    // the node's next wait.)
    if (waiting_) {
      waiting_ = false;
      wake_->release();
    }
  }

 private:
  SimRun& run_;
  Peer self_;
  std::string name_;
  s4u::Host* host_;
  s4u::SemaphorePtr wake_ = s4u::Semaphore::create(0);  // a wait without deadline
  bool waiting_ = false;
  s4u::MutexPtr mutex_ = s4u::Mutex::create();  // a wait with a deadline
  s4u::ConditionVariablePtr arrived_ = s4u::ConditionVariable::create();
  bool timed_waiting_ = false;
  std::deque<Message> inbox_;
  std::vector<s4u::ActorPtr> threads_;
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
