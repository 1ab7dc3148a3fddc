// The SimGrid engine's transport (transport.h): every node is an actor on its own simulated host of a
// SimGridWorld (sim/engines/simgrid_world.h), and a message is a SimGrid communication of its real size
// (header and payload) from the sender's host to the receiver's, waiting first for the bytes sent before it
// on that direction to leave (one connection, as the real engine's token bucket). Delivered messages wait in
// the receiver's mailbox until it calls receive(). Each direction's messages are carried by a few reused
// courier actors, one per message in flight, not an actor per message. A wait that waited (a sleep_until with
// time left, a receive that found nothing) ends RunContext::wake_up late, where the real engine counts its
// oversleep.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/study/study.h"
#include "sim/engines/transport/transport.h"

namespace perflab::transport {

// How messages draw their latency: from the run's one network stream in simulated event order (every
// study's until issue 41), or per link direction from latency_stream() in send order, as the real engine.
enum class SimLatency { kInEventOrder, kPerLink };

// Runs `hub` as node `names[0]` on a SimGridWorld whose hosts are `names`; the nodes it spawns must take the
// other names. Returns what the hub returned, or an error if the simulation ended before the hub did
// (every node waiting for a message that never comes).
Status run_on_simgrid(const RunContext& context, const std::vector<std::string>& names,
                      const std::function<Status(Node&)>& hub,
                      SimLatency latency = SimLatency::kInEventOrder);

}  // namespace perflab::transport
