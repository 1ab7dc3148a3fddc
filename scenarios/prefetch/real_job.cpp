// Real engine driver: the same Jenkins job as jgit_job.cpp, in real time. This process is the agent: the
// real RemoteClassLoader replays the workload through RealChannel, a ClassLoadingChannel over a loopback TCP
// socket to a forked controller process (real_controller.h) serving the real PrefetchServer on the real
// JARs. Every fetch3, fetch and JAR download is a request that carries the real bytes. Before each
// class-loading RPC the agent really sleeps a draw from `rpc_delay` (the PR's patched Channel.send), from
// the same stream as the sim, so the same draws in the same order; the link applies [network] in user space
// (sim/real/shaped_link.h). Sleeps are on absolute deadlines and every run reports how late they woke; both
// processes ask for real-time scheduling (sim/real/realtime.h) so that a loaded machine delays them less.
#include <condition_variable>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "models/prefetch/remote_class_loader.h"
#include "scenarios/prefetch/jgit_inputs.h"
#include "scenarios/prefetch/prefetch_study.h"
#include "scenarios/prefetch/real_controller.h"
#include "scenarios/prefetch/real_protocol.h"
#include "sim/real/deadline_sleeper.h"
#include "sim/real/peer_process.h"
#include "sim/real/realtime.h"
#include "sim/real/shaped_link.h"

namespace perflab::prefetch_study {
namespace {

constexpr int kConnectTimeoutMs = 30'000;  // the controller opens the classpath before it connects
constexpr int kIdleTimeoutMs = 120'000;    // no reply for this long: the controller is stuck
constexpr int kExitTimeoutMs = 10'000;

// The controller went away or the link broke: the run fails with this reason.
struct TransportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The agent's end of the Remoting channel over the real link. fetch3 and fetch block until their reply has
// come through the delay line; JAR downloads run on one downloader thread, one after another
// (JarCacheSupport). A receiver thread hands each reply to the caller waiting for it.
class RealChannel : public prefetch::ClassLoadingChannel {
 public:
  RealChannel(real::ShapedLink& link, real::DeadlineSleeper& sleeper, const JGitInputs& inputs,
              Distribution rpc_delay, bool delay_jar_downloads, Rng rpc_rng, Rng jar_rng)
      : link_(link),
        sleeper_(sleeper),
        inputs_(inputs),
        rpc_delay_(std::move(rpc_delay)),
        delay_jar_downloads_(delay_jar_downloads),
        rpc_rng_(rpc_rng),
        jar_rng_(jar_rng),
        receiver_([this] { receive_replies(); }),
        downloader_([this] { download_jars(); }) {}

  ~RealChannel() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    link_.shut_down();
    downloader_.join();
    receiver_.join();
  }

  std::vector<prefetch::SentClass> fetch3(const std::string& name) override {
    return classes(call(kFetch3, name, &rpc_rng_));
  }

  std::optional<prefetch::SentClass> fetch(const std::string& name) override {
    auto reply = classes(call(kFetch, name, &rpc_rng_));
    if (reply.empty()) return std::nullopt;
    return reply.front();
  }

  void start_jar_download(int jar) override {
    std::lock_guard<std::mutex> lock(mutex_);
    downloads_.push_back(jar);
    changed_.notify_all();
  }

  bool jar_ready(int jar) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return ready_.count(jar) > 0;
  }

  void notify_jar_present(int jar) override {
    check(link_.send(kJarPresent, 0, encode_index(static_cast<std::uint32_t>(jar))));
  }

  // Waits for the queued downloads, then asks the controller for its report (it exits after sending it).
  ControllerReport finish() {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return (downloads_.empty() && !downloading_) || !broken_.empty(); });
    }
    auto report = decode_report(call(kBye, "", nullptr).payload);
    if (!report.ok()) throw TransportError(report.status().message());
    return *report;
  }

  // Why the link broke, if it did (a download that failed, the controller gone).
  std::string broken() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return broken_;
  }

 private:
  static void check(const Status& status) {
    if (!status.ok()) throw TransportError(status.message());
  }

  std::vector<prefetch::SentClass> classes(const real::Frame& reply) {
    auto decoded = decode_classes(reply.payload);
    if (!decoded.ok()) throw TransportError(decoded.status().message());
    return std::move(decoded).value();
  }

  // One request and its reply. `delay_rng`: the stream of the injected sleep before it; nullptr for none.
  real::Frame call(MessageKind kind, std::string payload, Rng* delay_rng) {
    if (delay_rng != nullptr) {
      double delay = rpc_delay_.sample(*delay_rng);
      sleeper_.sleep_until(real::monotonic_ns() + static_cast<std::int64_t>(delay * 1e9));
    }
    std::uint64_t id = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!broken_.empty()) throw TransportError(broken_);
      id = ++last_id_;
    }
    check(link_.send(kind, id, std::move(payload)));
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return replies_.count(id) > 0 || !broken_.empty(); });
    auto found = replies_.find(id);
    if (found == replies_.end()) throw TransportError(broken_);
    real::Frame reply = std::move(found->second);
    replies_.erase(found);
    return reply;
  }

  void fail(const std::string& reason) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (broken_.empty()) broken_ = reason;
    changed_.notify_all();
  }

  // The receiver thread: each reply, once due, to its caller; bounded by the idle timeout and the link's end.
  void receive_replies() {
    for (;;) {
      auto frame = link_.receive(kIdleTimeoutMs);
      std::lock_guard<std::mutex> lock(mutex_);
      if (!frame.ok() || !frame->has_value()) {
        if (broken_.empty()) {
          broken_ = stopping_            ? "the run was over"
                    : frame.ok()         ? "the controller closed the connection"
                                         : frame.status().message();
        }
        changed_.notify_all();
        return;
      }
      replies_[(*frame)->id] = std::move(**frame);
      changed_.notify_all();
    }
  }

  // The downloader thread (JarCacheSupport's single executor): one JAR after another, until the run ends.
  void download_jars() {
    for (;;) {
      int jar = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !downloads_.empty() || stopping_ || !broken_.empty(); });
        if (downloads_.empty() || !broken_.empty()) return;
        jar = downloads_.front();
        downloads_.pop_front();
        downloading_ = true;
      }
      try {
        auto reply = call(kJar, encode_index(static_cast<std::uint32_t>(jar)),
                          delay_jar_downloads_ ? &jar_rng_ : nullptr);
        std::uint64_t expected = inputs_.jar_bytes[static_cast<size_t>(jar)];
        if (reply.payload.size() != expected) {
          throw TransportError("JAR " + std::to_string(jar) + " came with " +
                               std::to_string(reply.payload.size()) + " bytes, expected " +
                               std::to_string(expected));
        }
      } catch (const TransportError& error) {
        fail(error.what());
        return;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      ready_.insert(jar);
      downloading_ = false;
      changed_.notify_all();
    }
  }

  real::ShapedLink& link_;
  real::DeadlineSleeper& sleeper_;
  const JGitInputs& inputs_;
  Distribution rpc_delay_;
  bool delay_jar_downloads_;
  Rng rpc_rng_;  // used by the agent's thread only
  Rng jar_rng_;  // used by the downloader only

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t last_id_ = 0;
  std::map<std::uint64_t, real::Frame> replies_;
  std::deque<int> downloads_;
  bool downloading_ = false;
  std::set<int> ready_;
  std::string broken_;
  bool stopping_ = false;
  std::thread receiver_;  // last: they start once everything above is built
  std::thread downloader_;
};

}  // namespace

Result<RealJobResult> run_real_jgit_job(const RunContext& context) {
  const JobOptions o = knobs().options(context.params);
  const auto& inputs = context.inputs.get<JGitInputs>();

  const bool realtime = real::request_realtime_priority();  // before the threads and the controller exist
  auto listener = real::listen_loopback();
  if (!listener.ok()) return listener.status();
  const std::uint16_t port = listener->port;
  auto controller = real::PeerProcess::spawn("perflab-ctrl", [&] {
    return run_controller(port, inputs, o, context.network, context.rng(kReplyLatencyStream));
  });
  if (!controller.ok()) return controller.status();
  auto connection = real::accept_connection(*listener, kConnectTimeoutMs);
  if (!connection.ok()) {
    Status ended = controller.value().poll_ended();
    return Status::Error("the controller did not connect: " +
                         (ended.ok() ? connection.status().message() : ended.message()));
  }

  real::DeadlineSleeper sleeper;
  real::ShapedLink link(std::move(connection).value(), context.network, context.rng(kNetworkLatencyStream), sleeper);
  prefetch::AgentStats agent;
  ControllerReport report;
  double duration_s = 0;
  std::string failure;
  {
    RealChannel channel(link, sleeper, inputs, o.rpc_delay, o.delay_jar_downloads, context.rng(kRpcDelayStream),
                        context.rng(kJarDelayStream));
    prefetch::RemoteClassLoader loader(channel, o.jar_cache);
    try {
      const std::int64_t start = real::monotonic_ns();
      for (const auto& name : inputs.workload.classes) {
        std::uint64_t defined_before = loader.stats().classes_defined;
        loader.load(name);
        real::burn_cpu(static_cast<double>(loader.stats().classes_defined - defined_before) *
                       o.client_cpu_per_class);
      }
      duration_s = static_cast<double>(real::monotonic_ns() - start) * 1e-9;
      report = channel.finish();
    } catch (const TransportError& error) {
      failure = error.what();
    }
    agent = loader.stats();
  }
  Status exit = controller.value().wait(kExitTimeoutMs);
  if (!failure.empty() || !exit.ok()) {
    return Status::Error("controller process " + (exit.ok() ? std::string("ended") : exit.message()) +
                         (failure.empty() ? "" : ": " + failure));
  }

  real::OversleepStats oversleep = sleeper.stats();
  oversleep.add(report.oversleep);
  return RealJobResult{JobResult{agent, report.server.classes_loaded, duration_s}, oversleep.sleeps,
                       oversleep.mean_s(), static_cast<double>(oversleep.max_ns) * 1e-9, realtime};

}

}  // namespace perflab::prefetch_study
