// Sim engine driver: one Jenkins job initialising JGit on an agent, as measured in Remoting PR #721.
// The agent (the real RemoteClassLoader) loads the workload's classes in order; every class-loading RPC first
// waits a draw from `rpc_delay` (the PR's injected sleep), then crosses the link to the controller, where the
// real PrefetchServer answers fetch3 with the requested class and its prefetched dependencies. With a cold
// JAR cache the agent's one downloader thread fetches the JARs its classes need, one after another, in the
// background (JarCacheSupport). Only the channel below knows about SimGrid: the model code is the same that
// the unit tests drive in-process.
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

constexpr double kRequestBytes = 256;        // an RPC command: header and class name
constexpr double kReplyBytesPerClass = 160;  // a reply entry: name, JAR checksum, class loader id, referer

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
            for (const SentClass& sent : reply->classes) {
              bytes += kReplyBytesPerClass +
                       (sent.image_inline ? static_cast<double>(sent.class_file_bytes) : 0.0);
            }
          }
          world.send(request->reply_to, std::move(reply), bytes, "reply " + request->name);
          // JarLoaderImpl.writeJarTo: the JAR is known to be on the agent once it has been written out.
          if (request->kind == Request::kJar) server.notify_jar_present(request->jar);
        });
  }
}

// The agent's end of the Remoting channel over the simulated network: fetch3 and fetch are IClassLoader RPCs,
// delayed by the PR's injected sleep before they are sent; JAR downloads are JarLoader.writeJarTo calls made
// by the agent's single downloader, delayed too only when `delay_jar_downloads` says so.
class SimulatedChannel : public prefetch::ClassLoadingChannel {
 public:
  SimulatedChannel(SimWorld& world, prefetch::PrefetchServer& server, const JGitInputs& inputs,
                   Distribution rpc_delay, bool delay_jar_downloads, double exchange_overhead, Rng rpc_rng,
                   Rng jar_rng)
      : world_(world),
        server_(server),
        inputs_(inputs),
        rpc_delay_(std::move(rpc_delay)),
        delay_jar_downloads_(delay_jar_downloads),
        exchange_overhead_(exchange_overhead),
        rpc_rng_(rpc_rng),
        jar_rng_(jar_rng) {}

  std::vector<SentClass> fetch3(const std::string& name) override {
    return call({Request::kFetch3, name, 0, s4u::Mailbox::by_name("agent")}, "fetch3 " + name, &rpc_rng_)
        ->classes;
  }

  std::optional<SentClass> fetch(const std::string& name) override {
    auto reply = call({Request::kFetch, name, 0, s4u::Mailbox::by_name("agent")}, "fetch " + name, &rpc_rng_);
    if (reply->classes.empty()) return std::nullopt;
    return reply->classes.front();
  }

  // One downloader thread (JarCacheSupport's single-thread executor): each download waits for the one queued
  // before it.
  void start_jar_download(int jar) override {
    std::string name = jar_name(jar);
    s4u::ActorPtr previous = last_download_;
    last_download_ = s4u::Actor::create("JarCacheSupport", world_.host("agent"), [this, jar, name, previous] {
      if (previous) previous->join();
      call({Request::kJar, name, jar, s4u::Mailbox::by_name("jar-" + std::to_string(jar))},
           "fetchJar " + name, delay_jar_downloads_ ? &jar_rng_ : nullptr);
      ready_[jar] = true;
    });
  }

  bool jar_ready(int jar) override { return ready_[jar]; }

  // Asynchronous and tiny: no network cost modelled.
  void notify_jar_present(int jar) override { server_.notify_jar_present(jar); }

 private:
  // `delay_rng`: the stream to draw the injected delay from; nullptr for no delay.
  std::unique_ptr<Reply> call(Request request, const std::string& what, Rng* delay_rng) {
    // The calibrated overhead (0 unless a validation sets it) rides on the injected sleep.
    if (delay_rng != nullptr) {
      s4u::this_actor::sleep_for(rpc_delay_.sample(*delay_rng) + exchange_overhead_);
    } else if (exchange_overhead_ > 0) {
      s4u::this_actor::sleep_for(exchange_overhead_);
    }
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
  prefetch::PrefetchServer& server_;
  const JGitInputs& inputs_;
  Distribution rpc_delay_;
  bool delay_jar_downloads_;
  double exchange_overhead_;
  Rng rpc_rng_;
  Rng jar_rng_;
  s4u::ActorPtr last_download_;
  std::map<int, bool> ready_;
};

}  // namespace

Result<JobResult> run_jgit_job(const RunContext& context) {
  const JobOptions o = knobs().options(context.params);
  const auto& inputs = context.inputs.get<JGitInputs>();
  const Costs costs{o.server_cpu_per_class, o.client_cpu_per_class};

  SimWorld world(context, {"agent", "controller"});
  prefetch::PrefetchServer server(inputs.graph, o.server);
  SimulatedChannel channel(world, server, inputs, o.rpc_delay, o.delay_jar_downloads, o.exchange_overhead,
                           context.rng(kRpcDelayStream), context.rng(kJarDelayStream));
  prefetch::RemoteClassLoader loader(channel, o.jar_cache);
  double job_end = 0;

  s4u::Actor::create("controller", world.host("controller"), [&] { serve(world, server, inputs, costs); });
  s4u::Actor::create("agent", world.host("agent"), [&] {
    for (const auto& name : inputs.workload.classes) {
      uint64_t defined_before = loader.stats().classes_defined;
      loader.load(name);
      uint64_t defined = loader.stats().classes_defined - defined_before;
      s4u::this_actor::sleep_for(static_cast<double>(defined) * costs.client_cpu_per_class);
    }
    job_end = SimWorld::now();
  });
  world.run();

  return JobResult{loader.stats(), server.stats().classes_loaded, job_end};
}

}  // namespace perflab::prefetch_study
