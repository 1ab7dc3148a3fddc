// See job.h. Each node is single-threaded: the agent's class loads, its downloader and its receipt of
// replies share one event loop (receive() until the next thing due), as the controller serves one request
// after another.
#include "scenarios/prefetch/job.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "scenarios/prefetch/protocol.h"
#include "sim/engines/timeline.h"

namespace perflab::prefetch_study {
namespace {

using transport::kForever;
using transport::Message;
using transport::Node;

constexpr std::uint64_t kMaxTurns = 100'000'000;  // far above any trace: a loop that cannot run away

// The controller went away, the link broke or a reply was malformed: the job fails with this reason.
struct Broken : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using ByteCounts = std::map<std::string, std::uint64_t>;

Status send_counted(Node& node, transport::Peer to, std::uint32_t kind, std::uint64_t id, std::string payload,
                    ByteCounts& counts) {
  counts[kind_name(kind)] += transport::Message::kHeaderBytes + payload.size();
  return node.send(to, kind, id, std::move(payload));
}

// The controller's node: the real PrefetchServer, one request after another, each charged the CPU of the
// classes it loads or scans; it ends after its report.
Status serve(Node& node, const JobOptions& options, const JGitInputs& inputs, ControllerFiles& files) {
  prefetch::PrefetchServer server(inputs.graph, options.server);
  ByteCounts sent;
  for (std::uint64_t turn = 0; turn < kMaxTurns; ++turn) {
    auto batch = node.receive();
    if (!batch.ok()) return batch.status();
    for (const Message& request : *batch) {
      std::uint32_t kind = 0;
      std::string reply;
      switch (request.kind) {
        case transport::kPeerEnded:
          return Status::OK();  // the agent went away: nothing more to serve (it says why its run failed)
        case kFetch3:
        case kFetch: {
          const auto before = server.stats();
          std::vector<prefetch::SentClass> classes;
          if (request.kind == kFetch3) {
            classes = server.fetch3(request.payload);
          } else if (auto one = server.fetch(request.payload)) {
            classes.push_back(*one);
          }
          const auto& after = server.stats();
          node.compute(static_cast<double>(after.classes_loaded - before.classes_loaded +
                                           after.classes_scanned - before.classes_scanned) *
                       options.server_cpu_per_class);
          std::vector<WireClass> wire;
          for (auto& sent_class : classes) {
            WireClass c{std::move(sent_class), ""};
            if (c.sent.image_inline) {
              auto bytes = files.class_file(c.sent.name, c.sent.class_file_bytes);
              if (!bytes.ok()) return bytes.status();
              c.bytes = std::move(bytes).value();
            }
            wire.push_back(std::move(c));
          }
          kind = kClasses;
          reply = encode_classes(wire);
          break;
        }
        case kJar: {
          auto jar = decode_index(request.payload);
          if (!jar.ok()) return jar.status();
          if (*jar >= inputs.jar_bytes.size()) return Status::Error("no JAR " + std::to_string(*jar));
          auto bytes = files.jar_file(static_cast<int>(*jar));
          if (!bytes.ok()) return bytes.status();
          kind = kJarBytes;
          reply = std::move(bytes).value();
          break;
        }
        case kJarPresent: {
          auto jar = decode_index(request.payload);
          if (!jar.ok()) return jar.status();
          server.notify_jar_present(static_cast<int>(*jar));
          continue;
        }
        case kBye:
          return node.send(request.from, kReport, request.id, encode_report({server.stats(), sent}));
        default:
          return Status::Error("unexpected request kind " + std::to_string(request.kind));
      }
      Status out = send_counted(node, request.from, kind, request.id, std::move(reply), sent);
      if (!out.ok()) return out;
      // JarLoaderImpl.writeJarTo: the JAR is known to be on the agent once it has been written out.
      if (request.kind == kJar) server.notify_jar_present(static_cast<int>(*decode_index(request.payload)));
    }
  }
  return Status::Error("served more than " + std::to_string(kMaxTurns) + " turns");
}

// The agent's end of the Remoting channel. fetch3 and fetch wait for their reply; JAR downloads are made by
// one downloader, one after another (JarCacheSupport), each request leaving once its delay (if
// delay_jar_downloads) has passed. While the agent waits, every reply is taken as it falls due.
class Channel : public prefetch::ClassLoadingChannel {
 public:
  Channel(Node& node, transport::Peer controller, JobSetup& setup, ByteCounts& sent)
      : node_(node), controller_(controller), setup_(setup), sent_(sent) {}

  std::vector<prefetch::SentClass> fetch3(const std::string& name) override {
    return classes(call(kFetch3, name, &setup_.rpc_rng, "fetch3 " + name));
  }

  std::optional<prefetch::SentClass> fetch(const std::string& name) override {
    auto reply = classes(call(kFetch, name, &setup_.rpc_rng, "fetch " + name));
    if (reply.empty()) return std::nullopt;
    return reply.front();
  }

  void start_jar_download(int jar) override {
    queued_.push_back(jar);
    if (!downloading_) start_next_download();
  }

  bool jar_ready(int jar) override {
    if (ready_.count(jar) == 0) turn(node_.now());  // take what has already arrived
    return ready_.count(jar) > 0;
  }

  void notify_jar_present(int jar) override {
    check(send_counted(node_, controller_, kJarPresent, 0, encode_index(static_cast<std::uint32_t>(jar)),
                       sent_));
  }

  // Waits for the queued downloads, then asks for the controller's report.
  ControllerReport finish() {
    for (std::uint64_t turns = 0; downloading_; ++turns) {
      if (turns == kMaxTurns) throw Broken("the JAR downloads never ended");
      turn(kForever);
    }
    auto report = decode_report(call(kBye, "", nullptr, "").payload);
    if (!report.ok()) throw Broken(report.status().message());
    return *report;
  }

 private:
  static void check(const Status& status) {
    if (!status.ok()) throw Broken(status.message());
  }

  static std::vector<prefetch::SentClass> classes(const Message& reply) {
    auto decoded = decode_classes(reply.payload);
    if (!decoded.ok()) throw Broken(decoded.status().message());
    return std::move(decoded).value();
  }

  // Before a request leaves: the injected delay drawn from `delay_rng` (none when nullptr), plus the
  // calibrated exchange overhead.
  double delay(Rng* delay_rng) {
    return (delay_rng != nullptr ? setup_.options.rpc_delay.sample(*delay_rng) : 0.0) +
           setup_.exchange_overhead;
  }

  // One request and its reply, after its delay.
  Message call(std::uint32_t kind, std::string payload, Rng* delay_rng, const std::string& what) {
    const double leave_at = node_.now() + delay(delay_rng);
    for (std::uint64_t turns = 0; node_.now() < leave_at; ++turns) {
      if (turns == kMaxTurns) throw Broken("the agent's delay never ended");
      turn(leave_at);
    }
    const double start = node_.now();
    const std::uint64_t id = ++last_id_;
    check(send_counted(node_, controller_, kind, id, std::move(payload), sent_));
    for (std::uint64_t turns = 0; replies_.count(id) == 0; ++turns) {
      if (turns == kMaxTurns) throw Broken("no reply to request " + std::to_string(id));
      turn(kForever);
    }
    Message reply = std::move(replies_[id]);
    replies_.erase(id);
    if (setup_.timeline != nullptr && !what.empty()) {
      setup_.timeline->span("agent", what, start, node_.now(),
                            std::to_string(reply.payload.size()) + " B reply");
    }
    return reply;
  }

  // One turn of the agent's loop: what is due until `deadline` (or the downloader's next request), handled.
  // Once the controller has ended, nothing more will come: a turn is an error.
  void turn(double deadline) {
    if (!ended_.empty()) throw Broken(ended_);
    auto received = node_.receive(std::min(deadline, download_leaves_at_));
    if (!received.ok()) throw Broken(received.status().message());
    for (Message& message : std::move(received).value()) {
      if (message.kind == transport::kPeerEnded) {
        ended_ = "the controller ended: " + message.payload;
      } else if (downloading_ && message.id == download_id_) {
        finish_download(message);
      } else {
        replies_[message.id] = std::move(message);
      }
    }
    if (download_leaves_at_ <= node_.now()) send_download();
  }

  void start_next_download() {
    downloading_ = !queued_.empty();
    if (!downloading_) return;
    jar_ = queued_.front();
    queued_.pop_front();
    download_leaves_at_ = node_.now() + delay(setup_.options.delay_jar_downloads ? &setup_.jar_rng : nullptr);
    if (download_leaves_at_ <= node_.now()) send_download();
  }

  void send_download() {
    download_leaves_at_ = kForever;
    download_started_ = node_.now();
    download_id_ = ++last_id_;
    check(send_counted(node_, controller_, kJar, download_id_, encode_index(static_cast<std::uint32_t>(jar_)),
                       sent_));
  }

  void finish_download(const Message& reply) {
    const std::uint64_t expected = setup_.inputs.jar_bytes[static_cast<size_t>(jar_)];
    if (reply.payload.size() != expected) {
      throw Broken("JAR " + std::to_string(jar_) + " came with " + std::to_string(reply.payload.size()) +
                   " bytes, expected " + std::to_string(expected));
    }
    if (setup_.timeline != nullptr) {
      const auto& classes = setup_.inputs.graph.classes_in_jar(jar_);
      setup_.timeline->span(
          "JarCacheSupport",
          "fetchJar jar#" + std::to_string(jar_) +
              (classes.empty() ? "" : " (" + setup_.inputs.graph.node(classes[0]).name + ")"),
          download_started_, node_.now());
    }
    ready_.insert(jar_);
    start_next_download();
  }

  Node& node_;
  transport::Peer controller_;
  JobSetup& setup_;
  ByteCounts& sent_;
  std::uint64_t last_id_ = 0;
  std::map<std::uint64_t, Message> replies_;
  // The downloader: the JARs queued, the one in progress, when its request leaves (kForever once sent).
  std::deque<int> queued_;
  bool downloading_ = false;
  int jar_ = 0;
  std::uint64_t download_id_ = 0;
  double download_leaves_at_ = kForever;
  double download_started_ = 0;
  std::set<int> ready_;
  std::string ended_;  // why the controller ended, once it has
};

}  // namespace

Status run_agent(Node& node, JobSetup setup, JobResult& result) {
  const JobOptions& options = setup.options;
  const JGitInputs& inputs = setup.inputs;
  ControllerFiles& files = setup.files;
  auto controller = node.spawn(
      "controller", [&options, &inputs, &files](Node& n) { return serve(n, options, inputs, files); });
  if (!controller.ok()) return controller.status();
  ByteCounts sent;
  Channel channel(node, *controller, setup, sent);
  prefetch::RemoteClassLoader loader(channel, options.jar_cache);
  try {
    const double start = node.now();
    for (const auto& name : inputs.workload.classes) {
      const std::uint64_t defined_before = loader.stats().classes_defined;
      loader.load(name);
      node.compute(static_cast<double>(loader.stats().classes_defined - defined_before) *
                   options.client_cpu_per_class);
    }
    result.duration_s = node.now() - start;
    ControllerReport report = channel.finish();
    result.agent = loader.stats();
    result.server_classes_loaded = report.server.classes_loaded;
    for (const auto& [kind, bytes] : report.bytes_sent) sent[kind] += bytes;
    result.bytes_sent = sent;
  } catch (const Broken& error) {
    return Status::Error(error.what());
  }
  return Status::OK();
}

}  // namespace perflab::prefetch_study
