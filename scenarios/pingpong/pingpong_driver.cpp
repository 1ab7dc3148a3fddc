// Study `pingpong`: the smallest experiment that proves the harness. A client sends `requests` requests of
// `request_size` to a server and waits for each reply of `reply_size`; with a constant one-way latency L and
// bandwidth B the run takes requests × (2L + (request_size + reply_size) / B), a closed form the tests check.
// The `fault` parameter makes a run abort or hang, to exercise the runner's crash and timeout isolation.
#include <cstdlib>

#include "sim/engines/simgrid_world.h"
#include "sim/study/knobs.h"
#include "sim/study/metrics.h"
#include "sim/study/study.h"

// Its own namespace, as every study's: the build compiles scenarios/ in batches (unity build,
// CMakeLists.txt), where the anonymous namespaces of two studies' files would be one.
namespace perflab::pingpong_study {
namespace {

enum class Fault { kNone, kAbort, kHang };
const EnumNames<Fault> kFaultNames{
    "fault", {{Fault::kNone, "none"}, {Fault::kAbort, "abort"}, {Fault::kHang, "hang"}}};

struct PingPongOptions {
  int64_t requests = 100;
  double request_size = 1024;  // bytes
  double reply_size = 1024;    // bytes
  Fault fault = Fault::kNone;
};

const Knobs<PingPongOptions>& knobs() {
  static const Knobs<PingPongOptions> knobs = [] {
    Knobs<PingPongOptions> k;
    k.integer("requests", &PingPongOptions::requests, "requests the client sends, one at a time").at_least(1);
    k.size("request_size", &PingPongOptions::request_size, "bytes of each request");
    k.size("reply_size", &PingPongOptions::reply_size, "bytes of each reply");
    k.choice("fault", &PingPongOptions::fault, kFaultNames, "harness self-test: make the run abort or hang");
    return k;
  }();
  return knobs;
}

// What one run measures, each member bound once to its metric.
struct PingPongResult {
  double duration_s = 0;
  double rtt_mean_s = 0;
  int64_t messages = 0;
};

const MetricBindings<PingPongResult>& metrics() {
  static const MetricBindings<PingPongResult> metrics = [] {
    MetricBindings<PingPongResult> m;
    m.seconds("duration_s", &PingPongResult::duration_s, "simulated time until the last reply arrived");
    m.seconds("rtt_mean_s", &PingPongResult::rtt_mean_s, "mean round-trip time of a request");
    m.count("messages", &PingPongResult::messages, "messages sent (requests + replies)");
    return m;
  }();
  return metrics;
}

struct Ping {
  int64_t index;
};

Result<PingPongResult> run_pingpong(const RunContext& context) {
  const PingPongOptions options = knobs().options(context.params);
  const int64_t requests = options.requests;
  if (options.fault == Fault::kAbort) std::abort();
  if (options.fault == Fault::kHang) {
    for (volatile bool forever = true; forever;) {
    }
  }

  SimGridWorld world(context, {"client", "server"});
  auto* to_server = simgrid::s4u::Mailbox::by_name("server");
  auto* to_client = simgrid::s4u::Mailbox::by_name("client");
  double rtt_total = 0;
  int64_t messages = 0;

  simgrid::s4u::Actor::create("client", world.host("client"), [&] {
    for (int64_t i = 0; i < requests; ++i) {
      double sent = SimGridWorld::now();
      world.send(to_server, std::make_unique<Ping>(Ping{i}), options.request_size, "request");
      SimGridWorld::receive<Ping>(to_client);
      rtt_total += SimGridWorld::now() - sent;
      messages += 2;
    }
  });
  simgrid::s4u::Actor::create("server", world.host("server"), [&] {
    for (int64_t i = 0; i < requests; ++i) {
      auto ping = SimGridWorld::receive<Ping>(to_server);
      world.send(to_client, std::move(ping), options.reply_size, "reply");
    }
  });
  double duration = world.run();
  return PingPongResult{duration, rtt_total / static_cast<double>(requests), messages};
}

Study pingpong_study() {
  Study study;
  study.name = "pingpong";
  study.description = "request/reply over one link: proves the harness against closed forms";
  study.params = knobs().specs();
  bind_sim(study, metrics(), run_pingpong);
  return study;
}

const StudyRegistration registration(pingpong_study);

}  // namespace
}  // namespace perflab::pingpong_study
