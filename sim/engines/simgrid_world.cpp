#include "sim/engines/simgrid_world.h"

#include <cstdio>
#include <unordered_set>

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>

#include "sim/engines/timeline.h"

namespace perflab {
namespace {

// Links carry a nominal latency; the per-message latency factor scales the route's latency to the draw.
constexpr double kNominalLinkLatency = 1.0;
constexpr double kHostSpeed = 1e9;  // flop/s; drivers charge CPU with sleep_for, not execute

}  // namespace

SimGridWorld::SimGridWorld(const NetworkSpec& network, Rng latency_rng, const std::vector<std::string>& host_names,
                   Timeline* timeline)
    : engine_(std::make_unique<simgrid::s4u::Engine>("perflab")), timeline_(timeline) {
  // The default LV08 model multiplies latency by ~13 and caps bandwidth by a TCP window: CM02 without the
  // window cap and without cross-traffic makes latency and bandwidth mean what the scenario says.
  xbt_log_control_set("root.thres:critical");
  simgrid::s4u::Engine::set_config("network/model:CM02");
  simgrid::s4u::Engine::set_config("network/TCP-gamma:0");
  simgrid::s4u::Engine::set_config("network/crosstraffic:0");
  simgrid::s4u::Engine::set_config("contexts/factory:raw");

  auto* zone = simgrid::s4u::create_full_zone("world");
  for (const auto& name : host_names) hosts_.push_back(zone->create_host(name, kHostSpeed));
  for (size_t i = 1; i < hosts_.size(); ++i) {
    auto* link =
        zone->create_link("link-" + host_names[i], network.bandwidth)->set_latency(kNominalLinkLatency);
    link->seal();
    zone->add_route(hosts_[0]->get_netpoint(), hosts_[i]->get_netpoint(), nullptr, nullptr,
                    {simgrid::s4u::LinkInRoute(link)}, true);
  }
  zone->seal();

  auto rng = std::make_shared<Rng>(latency_rng);
  Distribution latency = network.latency;
  zone->get_network_model()->set_lat_factor_cb(
      [rng, latency](double, const simgrid::s4u::Host*, const simgrid::s4u::Host*,
                     const std::vector<simgrid::s4u::Link*>& links,
                     const std::unordered_set<simgrid::s4u::NetZone*>&) {
        double route_latency = 0;
        for (const auto* link : links) route_latency += link->get_latency();
        if (route_latency <= 0) return 1.0;  // same host: no network
        return latency.sample(*rng) / route_latency;
      });
}

void SimGridWorld::draw_latency(
    std::function<double(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to)> draw) {
  engine_->get_netzone_root()->get_network_model()->set_lat_factor_cb(
      [draw = std::move(draw)](double, const simgrid::s4u::Host* from, const simgrid::s4u::Host* to,
                               const std::vector<simgrid::s4u::Link*>& links,
                               const std::unordered_set<simgrid::s4u::NetZone*>&) {
        double route_latency = 0;
        for (const auto* link : links) route_latency += link->get_latency();
        if (route_latency <= 0) return 1.0;  // same host: no network
        return draw(from, to) / route_latency;
      });
}

simgrid::s4u::Host* SimGridWorld::host(const std::string& name) const {
  for (auto* h : hosts_) {
    if (h->get_name() == name) return h;
  }
  std::fprintf(stderr, "perflab: internal error: no simulated host \"%s\"\n", name.c_str());
  std::abort();
}

double SimGridWorld::run() {
  engine_->run();
  return now();
}

void SimGridWorld::transfer(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes,
                        const std::string& what) {
  double start = now();
  simgrid::s4u::Comm::sendto(from, to, static_cast<uint64_t>(bytes));
  record_message(what, start, to->get_name());
}

void SimGridWorld::record_message(const std::string& what, double start, const std::string& to) const {
  if (timeline_ == nullptr) return;
  const auto* actor = simgrid::s4u::Actor::self();
  timeline_->span(actor != nullptr ? actor->get_name() : "maestro", what, start, now(), "to " + to);
}

}  // namespace perflab
