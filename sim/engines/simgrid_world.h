// The simulated world of one run: a SimGrid engine and a platform built in code from [network].
// Hosts form a star around the first one (the hub): each other host reaches the hub over its own link with
// the scenario's bandwidth. The one-way latency of every message is drawn from the scenario's latency
// distribution with a seeded generator, so a `constant(10ms)` network delivers a tiny message in 10 ms.
// One SimGridWorld per process: SimGrid cannot re-create its engine, which is why the runner forks per run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/sampling/rng.h"
#include "sim/study/study.h"

namespace perflab {

class SimGridWorld {
 public:
  SimGridWorld(const NetworkSpec& network, Rng latency_rng, const std::vector<std::string>& host_names,
           Timeline* timeline = nullptr);
  // The usual way: the run's network, its latency stream and its timeline.
  SimGridWorld(const RunContext& context, const std::vector<std::string>& host_names)
      : SimGridWorld(context.network, context.rng(kNetworkLatencyStream), host_names, context.timeline) {}
  SimGridWorld(const SimGridWorld&) = delete;
  SimGridWorld& operator=(const SimGridWorld&) = delete;

  simgrid::s4u::Host* host(const std::string& name) const;
  // Replaces the one latency stream: each message between two hosts travels `draw(from, to)` seconds.
  void draw_latency(std::function<double(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to)> draw);
  Timeline* timeline() const { return timeline_; }

  // Runs until every actor has finished; returns the simulated time at the end (seconds).
  double run();
  static double now() { return simgrid::s4u::Engine::get_clock(); }

  // Sends `payload` of `bytes` to `mailbox` and returns when the receiver has it (a span on the timeline).
  template <typename T>
  void send(simgrid::s4u::Mailbox* mailbox, std::unique_ptr<T> payload, double bytes,
            const std::string& what) {
    double start = now();
    mailbox->put(payload.release(), static_cast<uint64_t>(bytes));
    record_message(what, start, mailbox->get_name());
  }
  // Moves `bytes` from host `from` to host `to` with no receiver actor (an exchange whose other end is not
  // simulated); returns when they have arrived (a span on the timeline).
  void transfer(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, const std::string& what);
  // Fire and forget: the sender does not wait for delivery.
  template <typename T>
  void post(simgrid::s4u::Mailbox* mailbox, std::unique_ptr<T> payload, double bytes) {
    mailbox->put_init(payload.release(), static_cast<uint64_t>(bytes))->detach();
  }
  template <typename T>
  static std::unique_ptr<T> receive(simgrid::s4u::Mailbox* mailbox) {
    return std::unique_ptr<T>(mailbox->get<T>());
  }

 private:
  void record_message(const std::string& what, double start, const std::string& to) const;

  std::unique_ptr<simgrid::s4u::Engine> engine_;
  std::vector<simgrid::s4u::Host*> hosts_;
  Timeline* timeline_;
};

}  // namespace perflab
