// Raw s4u ping-pong: two hosts, one link, CM02. The engine settings are the ones SimGridWorld uses (no TCP
// window cap, no cross-traffic, raw contexts) so that both sides simulate exactly the same thing and the
// benchmark ratio measures the harness, not a configuration difference.
#include "tests/perf/raw_pingpong.h"

#include <simgrid/s4u.hpp>

namespace perflab::perf {

double run_raw_pingpong(const PingpongShape& shape) {
  namespace s4u = simgrid::s4u;
  s4u::Engine engine("raw-pingpong");
  xbt_log_control_set("root.thres:critical");
  s4u::Engine::set_config("network/model:CM02");
  s4u::Engine::set_config("network/TCP-gamma:0");
  s4u::Engine::set_config("network/crosstraffic:0");
  s4u::Engine::set_config("contexts/factory:raw");

  auto* zone = s4u::create_full_zone("world");
  auto* client = zone->create_host("client", 1e9);
  auto* server = zone->create_host("server", 1e9);
  auto* link = zone->create_link("link", shape.bandwidth)->set_latency(shape.latency_s);
  link->seal();
  zone->add_route(client->get_netpoint(), server->get_netpoint(), nullptr, nullptr, {s4u::LinkInRoute(link)},
                  true);
  zone->seal();

  auto* to_server = s4u::Mailbox::by_name("server");
  auto* to_client = s4u::Mailbox::by_name("client");
  int token = 0;
  const auto request_bytes = static_cast<uint64_t>(shape.request_bytes);
  const auto reply_bytes = static_cast<uint64_t>(shape.reply_bytes);
  s4u::Actor::create("client", client, [&] {
    for (int64_t i = 0; i < shape.exchanges; ++i) {
      to_server->put(&token, request_bytes);
      to_client->get<int>();
    }
  });
  s4u::Actor::create("server", server, [&] {
    for (int64_t i = 0; i < shape.exchanges; ++i) {
      int* ping = to_server->get<int>();
      to_client->put(ping, reply_bytes);
    }
  });
  engine.run();
  return s4u::Engine::get_clock();
}

}  // namespace perflab::perf
