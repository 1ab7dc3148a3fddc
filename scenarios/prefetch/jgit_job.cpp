// Sim engine driver: one Jenkins job initialising JGit on an agent, as measured in Remoting PR #721.
// The agent (the real RemoteClassLoader) loads the traced classes in order; every class-loading RPC first
// waits a draw from `rpc_delay` (the PR's injected sleep), then crosses the link to the controller, where the
// real PrefetchServer answers fetch3 with the requested class and its prefetched dependencies. With a cold
// JAR cache the agent also downloads each JAR it needs, in the background. Only the channel below knows about
// SimGrid: the model code is the same that the unit tests drive in-process.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "scenarios/prefetch/jgit_inputs.h"
#include "scenarios/prefetch/prefetch_study.h"
#include "sim/sim_world.h"
#include "sim/timeline.h"

namespace perflab::prefetch_study {
namespace {

namespace s4u = simgrid::s4u;
using prefetch::SentClass;

constexpr uint64_t kRpcDelayStream = 1;
constexpr double kRequestBytes = 256;        // an RPC command: header and class name
constexpr double kReplyBytesPerClass = 160;  // a fetch3 reply entry with the JAR cache: name, checksum, flags

struct Request {
  enum Kind { kFetch3, kFetch, kJar } kind;
  std::string name;  // class (kFetch3, kFetch) or JAR (kJar)
  int jar = 0;
  s4u::Mailbox* reply_to = nullptr;
};

struct Reply {
  std::vector<SentClass> classes;
};

struct Costs {
  double server_cpu_per_class;  // seconds per class the controller loads or scans
  double client_cpu_per_class;  // seconds per class the agent defines
};

// The controller: serves every request on its own actor, like Remoting's request executor.
void serve(SimWorld& world, prefetch::PrefetchServer& server, const JGitInputs& inputs, const Costs& costs) {
  auto* inbox = s4u::Mailbox::by_name("controller");
  s4u::Actor::self()->daemonize();
  for (int served = 0;; ++served) {
    auto request = SimWorld::receive<Request>(inbox);
    s4u::Actor::create(
        "handler-" + std::to_string(served), world.host("controller"),
        [&world, &server, &inputs, costs, request = std::shared_ptr<Request>(std::move(request))] {
          auto reply = std::make_unique<Reply>();
          double bytes = 0;
          if (request->kind == Request::kJar) {
            bytes = static_cast<double>(inputs.jar_bytes[static_cast<size_t>(request->jar)]);
          } else {
            auto before = server.stats();
            if (request->kind == Request::kFetch3) {
              reply->classes = server.fetch3(request->name);
            } else if (auto sent = server.fetch(request->name)) {
              reply->classes.push_back(*sent);
            }
            auto after = server.stats();
            auto work = static_cast<double>(after.classes_loaded - before.classes_loaded +
                                            after.classes_scanned - before.classes_scanned);
            s4u::this_actor::sleep_for(work * costs.server_cpu_per_class);
            bytes = kReplyBytesPerClass * static_cast<double>(reply->classes.size());
          }
          world.send(request->reply_to, std::move(reply), bytes, "reply " + request->name);
        });
  }
}

// The agent's end of the Remoting channel over the simulated network: every call is an IClassLoader RPC,
// delayed by the PR's injected sleep before it is sent.
class SimulatedChannel : public prefetch::ClassLoadingChannel {
 public:
  SimulatedChannel(SimWorld& world, const JGitInputs& inputs, Distribution rpc_delay, Rng rng)
      : world_(world), inputs_(inputs), rpc_delay_(std::move(rpc_delay)), rng_(rng) {}

  std::vector<SentClass> fetch3(const std::string& name) override {
    return call({Request::kFetch3, name, 0, s4u::Mailbox::by_name("agent")}, "fetch3 " + name)->classes;
  }

  std::optional<SentClass> fetch(const std::string& name) override {
    auto reply = call({Request::kFetch, name, 0, s4u::Mailbox::by_name("agent")}, "fetch " + name);
    if (reply->classes.empty()) return std::nullopt;
    return reply->classes.front();
  }

  void download_jar(int jar, bool wait) override {
    auto& download = downloads_[jar];
    if (!download) {
      std::string name = jar_name(jar);
      download = s4u::Actor::create("download " + name, world_.host("agent"), [this, jar, name] {
        call({Request::kJar, name, jar, s4u::Mailbox::by_name("jar-" + std::to_string(jar))},
             "fetchJar " + name);
        ready_[jar] = true;
      });
    }
    if (wait) download->join();
  }

  bool jar_ready(int jar) override { return ready_[jar]; }

 private:
  std::unique_ptr<Reply> call(Request request, const std::string& what) {
    s4u::this_actor::sleep_for(rpc_delay_.sample(rng_));
    double start = SimWorld::now();
    auto* reply_to = request.reply_to;
    world_.send(s4u::Mailbox::by_name("controller"), std::make_unique<Request>(std::move(request)),
                kRequestBytes, "request");
    auto reply = SimWorld::receive<Reply>(reply_to);
    if (world_.timeline() != nullptr) {
      world_.timeline()->span(s4u::this_actor::get_name(), what, start, SimWorld::now(),
                              std::to_string(reply->classes.size()) + " classes");
    }
    return reply;
  }

  std::string jar_name(int jar) const {
    const auto& classes = inputs_.graph.classes_in_jar(jar);
    return "jar#" + std::to_string(jar) +
           (classes.empty() ? "" : " (" + inputs_.graph.node(classes[0]).name + ")");
  }

  SimWorld& world_;
  const JGitInputs& inputs_;
  Distribution rpc_delay_;
  Rng rng_;
  std::map<int, s4u::ActorPtr> downloads_;
  std::map<int, bool> ready_;
};

}  // namespace

Result<Metrics> run_jgit_job(const RunContext& context) {
  const Params& p = context.params;
  auto inputs = load_inputs(p.string("trace"), p.paths("classpath"));
  if (!inputs.ok()) return inputs.status();
  prefetch::PrefetchOptions options;
  options.prefetch_depth = static_cast<int>(p.integer("prefetch_depth"));
  options.prune_threshold = static_cast<int>(p.integer("prune_threshold"));
  options.traversal = *prefetch::ParseTraversal(p.string("traversal"));
  const auto jar_cache =
      p.string("jar_cache") == "cold" ? prefetch::JarCache::kCold : prefetch::JarCache::kWarm;
  const Costs costs{p.real("server_cpu_per_class"), p.real("client_cpu_per_class")};

  SimWorld world(context, {"agent", "controller"});
  prefetch::PrefetchServer server((*inputs)->graph, options);
  SimulatedChannel channel(world, **inputs, p.distribution("rpc_delay"), context.rng(kRpcDelayStream));
  prefetch::RemoteClassLoader loader(channel, jar_cache);
  double job_end = 0;

  s4u::Actor::create("controller", world.host("controller"), [&] { serve(world, server, **inputs, costs); });
  s4u::Actor::create("agent", world.host("agent"), [&] {
    for (const auto& name : (*inputs)->workload.classes) {
      uint64_t defined_before = loader.stats().classes_defined;
      loader.Load(name);
      uint64_t defined = loader.stats().classes_defined - defined_before;
      s4u::this_actor::sleep_for(static_cast<double>(defined) * costs.client_cpu_per_class);
    }
    job_end = SimWorld::now();
  });
  world.run();

  const auto& agent = loader.stats();
  return Metrics{
      {"rpcs", static_cast<double>(agent.rpcs)},
      {"classes_prefetched", static_cast<double>(agent.classes_prefetched)},
      {"prefetch_hits", static_cast<double>(agent.prefetch_hits)},
      {"bytes_prefetched", static_cast<double>(agent.bytes_prefetched)},
      {"server_classes_loaded", static_cast<double>(server.stats().classes_loaded)},
      {"jar_downloads", static_cast<double>(agent.jar_downloads)},
      {"extra_fetches", static_cast<double>(agent.extra_fetches)},
      {"duration_s", job_end},
  };
}

}  // namespace perflab::prefetch_study
