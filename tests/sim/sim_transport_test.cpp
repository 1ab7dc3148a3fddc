// The SimGrid transport's delivery (sim/engines/transport/sim_transport.cpp), on its own: one direction's
// messages leave one after another at the bandwidth and arrive one latency later, a node's end reaches the
// hub after the messages it sent before it, a run of many messages is carried by a few reused couriers,
// not an actor per message, and a wait that waited ends the run's wake-up late (one that did not wait
// costs nothing). Each run is in a forked child: SimGrid allows one engine per process.
#include <gtest/gtest.h>

#include <simgrid/s4u.hpp>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/engines/transport/sim_transport.h"
#include "tests/sim/in_child.h"

namespace perflab::transport {
namespace {

using test_support::in_child;

constexpr double kLatency = 0.010;        // s, one way
constexpr double kBandwidth = 1e6;        // B/s
constexpr std::size_t kWireBytes = 1000;  // per message: 1 ms at kBandwidth
const std::string kPayload(kWireBytes - Message::kHeaderBytes, 'x');

NetworkSpec link() {
  NetworkSpec network;
  network.latency = Distribution::constant(kLatency, Quantity::kDuration);
  network.bandwidth = kBandwidth;
  return network;
}

// Runs `hub` on hosts "hub" and "peer" in a child, at wake-up latency `wake_up`; returns what the hub wrote
// to `out`, or the error.
std::string run(const std::function<Status(Node&, std::ostringstream&)>& hub, double wake_up = 0) {
  return in_child([&] {
    const Params params;
    const PointInputs inputs;
    const NetworkSpec network = link();
    RunContext context{params, inputs, network, /*seed=*/1, /*timeline=*/nullptr};
    context.wake_up = wake_up;
    std::ostringstream out;
    const Status status =
        run_on_simgrid(context, {"hub", "peer"}, [&](Node& node) { return hub(node, out); });
    return status.ok() ? out.str() : "error: " + status.message();
  });
}

TEST(SimTransport, ABurstLeavesAtTheBandwidthArrivesALatencyLaterAndTheEndComesAfterIt) {
  const std::string log = run([](Node& hub, std::ostringstream& out) -> Status {
    auto peer = hub.spawn("peer", [](Node& node) -> Status {
      for (std::uint64_t id = 1; id <= 5; ++id) {
        if (Status s = node.send(0, 1, id, kPayload); !s.ok()) return s;
      }
      return Status::OK();  // ends at once: its messages are still on their way
    });
    if (!peer.ok()) return peer.status();
    for (bool ended = false; !ended;) {
      auto batch = hub.receive();
      if (!batch.ok()) return batch.status();
      for (const Message& m : *batch) {
        // Message i's last byte leaves i ms after the first one's first, and arrives kLatency later.
        const double expected =
            static_cast<double>(m.kind == kPeerEnded ? 5 : m.id) * kWireBytes / kBandwidth + kLatency;
        out << (m.kind == kPeerEnded ? std::string("end") : std::to_string(m.id)) << " "
            << (std::abs(hub.now() - expected) < 1e-12 ? "on time" : "at " + std::to_string(hub.now()))
            << "\n";
        ended = m.kind == kPeerEnded;
      }
    }
    return Status::OK();
  });
  EXPECT_EQ(log, "1 on time\n2 on time\n3 on time\n4 on time\n5 on time\nend on time\n");
}

// Three peers on hosts of their own send at once over equal links: the three messages arrive at one instant
// and the hub, waiting, gets them in one batch; so does a hub that was busy when they came, a wait with a
// deadline that they beat, and a wait after those (no wake left over from deliveries nobody waited for).
TEST(SimTransport, MessagesArrivingAtOneInstantAreOneBatch) {
  const std::string log = in_child([] {
    const Params params;
    const PointInputs inputs;
    const NetworkSpec network = link();
    const RunContext context{params, inputs, network, /*seed=*/1, /*timeline=*/nullptr};
    std::ostringstream out;
    const Status status = run_on_simgrid(context, {"hub", "a", "b", "c"}, [&](Node& hub) -> Status {
      std::vector<Peer> peers;
      for (const char* name : {"a", "b", "c"}) {
        auto peer = hub.spawn(name, [](Node& node) -> Status {
          for (std::uint64_t id = 1; id <= 4; ++id) {
            auto go = node.receive();  // one message of the hub's starts each burst
            if (!go.ok()) return go.status();
            if (Status s = node.send(0, 1, id, kPayload); !s.ok()) return s;
          }
          return node.receive().status();  // until the hub ends
        });
        if (!peer.ok()) return peer.status();
        peers.push_back(*peer);
      }
      const auto burst = [&](const std::function<Result<std::vector<Message>>()>& receive) -> Status {
        for (Peer peer : peers) {
          if (Status s = hub.send(peer, 1, 0, ""); !s.ok()) return s;
        }
        auto batch = receive();
        if (!batch.ok()) return batch.status();
        out << batch->size() << " at " << std::lround(hub.now() * 1e6) << " us\n";
        return Status::OK();
      };
      double start = hub.now();
      Status s = burst([&] { return hub.receive(); });  // waiting forever
      if (s.ok()) {
        s = burst([&] {  // busy until after they arrived
          hub.compute(0.050);
          return hub.receive();
        });
      }
      if (s.ok()) s = burst([&] { return hub.receive(hub.now() + 1.0); });  // a deadline they beat
      if (s.ok()) s = burst([&] { return hub.receive(); });  // waiting forever again: no stale wake
      out << "started at " << start;
      return s;
    });
    return status.ok() ? out.str() : "error: " + status.message();
  });
  // A burst: the hub's call (28 B) takes 10.028 ms to a peer, its answer 10 + 1 ms back.
  EXPECT_EQ(log, "3 at 21028 us\n3 at 71028 us\n3 at 92056 us\n3 at 113084 us\nstarted at 0") << log;
}

TEST(SimTransport, ManyMessagesAreCarriedByAFewReusedCouriersNotAnActorEach) {
  constexpr int kRounds = 200;
  constexpr int kPerRound = 3;
  const std::string log = run([](Node& hub, std::ostringstream& out) -> Status {
    int couriers = 0;
    simgrid::s4u::Actor::on_creation_cb(
        [&](simgrid::s4u::Actor& a) { couriers += a.get_name() == "message"; });
    auto peer = hub.spawn("peer", [](Node& node) -> Status {
      for (int answered = 0; answered < kRounds * kPerRound;) {
        auto batch = node.receive();
        if (!batch.ok()) return batch.status();
        for (const Message& m : *batch) {
          if (Status s = node.send(0, 2, m.id, kPayload); !s.ok()) return s;
          ++answered;
        }
      }
      return Status::OK();
    });
    if (!peer.ok()) return peer.status();
    for (int i = 0; i < kRounds; ++i) {
      // Three requests at once: three messages in flight on the way out, then three on the way back.
      for (std::uint64_t k = 0; k < kPerRound; ++k) {
        if (Status s = hub.send(*peer, 1, k, kPayload); !s.ok()) return s;
      }
      for (int answers = 0; answers < kPerRound;) {
        auto batch = hub.receive();
        if (!batch.ok()) return batch.status();
        for (const Message& m : *batch) answers += m.kind == 2;
      }
    }
    out << couriers << " " << hub.now();
    return Status::OK();
  });
  std::istringstream in(log);
  int couriers = 0;
  double seconds = 0;
  ASSERT_TRUE(in >> couriers >> seconds) << log;
  // 1,200 messages; never more than three in flight in a direction, so a handful of couriers carry them.
  EXPECT_GE(couriers, 2);
  EXPECT_LE(couriers, 8);
  // A round: the third request's bytes leave after 3 ms and arrive 10 ms later; its answer leaves 1 ms
  // after and arrives 10 ms later: reuse moved no delivery.
  const double transfer = kWireBytes / kBandwidth;
  EXPECT_NEAR(seconds, kRounds * (kPerRound * transfer + kLatency + transfer + kLatency), 1e-9);
}

// "at 12.5 ms": a simulated time, to the nanosecond.
std::string at(double seconds) {
  std::ostringstream text;
  text << "at " << std::llround(seconds * 1e9) / 1e6 << " ms";
  return text.str();
}

constexpr double kWakeUp = 0.0015;  // s: longer than a message's transfer, so a second one lands meanwhile

// A sleep with time left ends one wake-up late; one whose deadline has passed does not sleep, so costs
// nothing.
std::string sleeps(double wake_up) {
  return run(
      [](Node& hub, std::ostringstream& out) -> Status {
        hub.sleep_until(0.005);
        out << "slept " << at(hub.now()) << "; ";
        hub.sleep_until(0.001);  // passed
        out << "passed " << at(hub.now());
        return Status::OK();
      },
      wake_up);
}

TEST(SimTransportWakeUp, ASleepWithTimeLeftCostsTheWakeUpOneWithoutCostsNothing) {
  EXPECT_EQ(sleeps(0), "slept at 5 ms; passed at 5 ms");
  EXPECT_EQ(sleeps(kWakeUp), "slept at 6.5 ms; passed at 6.5 ms");
}

// The peer sends two messages at once: they arrive at 11 and 12 ms (1 ms apart at the bandwidth). The hub
// receives, then sleeps past a third's arrival and receives it from its inbox, then receives with a
// deadline already passed, then with one in the future that nothing meets.
std::string receives(double wake_up) {
  return run(
      [](Node& hub, std::ostringstream& out) -> Status {
        auto peer = hub.spawn("peer", [](Node& node) -> Status {
          for (std::uint64_t id = 1; id <= 2; ++id) {
            if (Status s = node.send(0, 1, id, kPayload); !s.ok()) return s;
          }
          node.sleep_until(0.020);
          if (Status s = node.send(0, 1, 3, kPayload); !s.ok()) return s;  // leaves at 20 ms (+ the wake-up)
          node.sleep_until(1.0);  // outlives the hub: its end is no message here
          return Status::OK();
        });
        if (!peer.ok()) return peer.status();
        const auto say = [&](const char* what, const Result<std::vector<Message>>& batch) {
          out << what << " " << (batch.ok() ? batch->size() : 99) << " " << at(hub.now()) << "; ";
        };
        say("waited:", hub.receive());  // empty inbox: waits for the first
        hub.sleep_until(0.040);
        say("inbox:", hub.receive());  // the third is there: no wait
        say("passed:", hub.receive(0.001));
        say("timed out:", hub.receive(hub.now() + 0.005));
        return Status::OK();
      },
      wake_up);
}

TEST(SimTransportWakeUp, AReceiveThatWaitedCostsTheWakeUpAndTakesWhatLandedMeanwhile) {
  // Without a wake-up the first receive wakes at the first message, alone; the second waits in the inbox
  // with the third.
  EXPECT_EQ(receives(0),
            "waited: 1 at 11 ms; inbox: 2 at 40 ms; passed: 0 at 40 ms; timed out: 0 at 45 ms; ");
  // With one it wakes 1.5 ms later, when the second has landed too (at 12 ms): one batch of two. A receive
  // from a full inbox, or whose deadline has passed, does not wait and costs nothing; one that waits until
  // its deadline wakes late too. The sleep to 40 ms is charged as well (41.5 ms).
  EXPECT_EQ(receives(kWakeUp),
            "waited: 2 at 12.5 ms; inbox: 1 at 41.5 ms; passed: 0 at 41.5 ms; timed out: 0 at 48 ms; ");
}

}  // namespace
}  // namespace perflab::transport
