// Sim engine driver: the OkHttp incident. Application threads enqueue calls (open-loop Poisson arrivals)
// on the real Dispatcher; `threads` executor workers run each call as an HTTP exchange with its host over
// the simulated network and then call finished(). The dispatcher's monitor is a simulated mutex: every
// call into the real Dispatcher holds it for the elements the real code touched under its lock × ns_per_op.
// What the thread dumps showed — threads piling up BLOCKED on the lock while one thread scans — shows
// here as lock wait time and the number of simulated threads blocked at once.
#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <string>

#include "analysis/stats.h"
#include "models/dispatcher/dispatcher.h"
#include "scenarios/dispatcher/dispatcher_study.h"
#include "sim/sim_world.h"
#include "sim/timeline.h"

namespace perflab::dispatcher_study {
namespace {

namespace s4u = simgrid::s4u;
using dispatcher::CallPtr;

constexpr uint64_t kArrivalStream = 1;
constexpr uint64_t kHostChoiceStream = 2;
constexpr uint64_t kServerTimeStream = 3;

// Which host each call goes to: uniform, or Zipf with exponent s (host i chosen ∝ 1 / i^s).
class HostPicker {
 public:
  HostPicker(int hosts, double zipf_s) : cumulative_(static_cast<size_t>(hosts)) {
    double total = 0;
    for (int i = 0; i < hosts; ++i) {
      total += zipf_s == 0 ? 1.0 : 1.0 / std::pow(i + 1, zipf_s);
      cumulative_[static_cast<size_t>(i)] = total;
    }
    for (auto& c : cumulative_) c /= total;
  }
  int pick(Rng& rng) const {
    double u = rng.uniform01();
    auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
    return static_cast<int>(
        std::min<size_t>(static_cast<size_t>(it - cumulative_.begin()), cumulative_.size() - 1));
  }

 private:
  std::vector<double> cumulative_;
};

// The Executor the Dispatcher hands promoted calls to. It only collects them: the calls reach the worker
// threads once the caller has released the simulated lock (the real code never runs callbacks under it).
class SimExecutor : public dispatcher::Executor {
 public:
  Status execute(const CallPtr& call) override {
    handed_over_.push_back(call);
    return Status::OK();
  }
  std::vector<CallPtr> take() { return std::exchange(handed_over_, {}); }

 private:
  std::vector<CallPtr> handed_over_;
};

// The dispatcher lock in simulated time, with the statistics the incident is about.
class SimulatedMonitor {
 public:
  SimulatedMonitor(double ns_per_op, Timeline* timeline)
      : mutex_(s4u::Mutex::create()), seconds_per_op_(ns_per_op * 1e-9), timeline_(timeline) {}

  void on_section(const dispatcher::LockedSectionReport& report) { sections_.push_back(report); }

  // Runs `real_code` (a call into the real Dispatcher) as the current simulated thread: waits for the
  // lock, then holds it for the cost of every locked section the real code went through.
  template <typename RealCode>
  void run_locked(RealCode&& real_code) {
    if (!mutex_->try_lock()) {
      double asked = s4u::Engine::get_clock();
      ++blocked_;
      blocked_max_ = std::max(blocked_max_, blocked_);
      mutex_->lock();
      --blocked_;
      wait_total_ += s4u::Engine::get_clock() - asked;
    }
    sections_.clear();
    real_code();
    for (const auto& section : sections_) {
      double start = s4u::Engine::get_clock();
      double hold = static_cast<double>(std::max<uint64_t>(1, section.ops)) * seconds_per_op_;
      s4u::this_actor::sleep_for(hold);
      hold_max_ = std::max(hold_max_, hold);
      hold_total_ += hold;
      ops_total_ += section.ops;
      if (timeline_ != nullptr) {
        timeline_->span(s4u::this_actor::get_name(),
                        std::string(dispatcher::locked_section_name(section.section)), start,
                        s4u::Engine::get_clock(), std::to_string(section.ops) + " ops");
      }
    }
    mutex_->unlock();
  }

  int blocked_max() const { return blocked_max_; }
  double wait_total() const { return wait_total_; }
  double hold_max() const { return hold_max_; }
  double hold_total() const { return hold_total_; }
  uint64_t ops_total() const { return ops_total_; }

 private:
  s4u::MutexPtr mutex_;
  double seconds_per_op_;
  Timeline* timeline_;
  std::vector<dispatcher::LockedSectionReport> sections_;
  int blocked_ = 0;  // simulated threads waiting for the lock right now
  int blocked_max_ = 0;
  double wait_total_ = 0;
  double hold_max_ = 0;
  double hold_total_ = 0;
  uint64_t ops_total_ = 0;
};

struct Experiment {
  int64_t calls;
  int threads;
  int hosts;
  double arrival_rate;
  double request_size;
  double response_size;
  Distribution server_time;
  double zipf_s;
};

Result<double> parse_popularity(const std::string& text) {
  if (text == "uniform") return 0.0;
  double s = 0;
  char close = 0;
  if (std::sscanf(text.c_str(), "zipf(%lf%c", &s, &close) == 2 && close == ')' && s > 0) return s;
  return Status::Error("host_popularity \"" + text +
                       "\" is not understood, expected \"uniform\" or \"zipf(s)\" "
                       "with s > 0, e.g. \"zipf(1.1)\"");
}

}  // namespace

Status validate_popularity(const Params& params) {
  return parse_popularity(params.text("host_popularity")).status();
}

Result<Metrics> run_incident(const RunContext& context) {
  const Params& p = context.params;
  auto zipf_s = parse_popularity(p.text("host_popularity"));
  if (!zipf_s.ok()) return zipf_s.status();
  auto strategy = dispatcher::parse_strategy(p.string("strategy"));
  if (!strategy.ok()) return strategy.status();
  const Experiment x{p.integer("calls"),
                     static_cast<int>(p.integer("threads")),
                     static_cast<int>(p.integer("hosts")),
                     p.real("arrival_rate"),
                     p.real("request_size"),
                     p.real("response_size"),
                     p.distribution("server_time"),
                     *zipf_s};

  std::vector<std::string> host_names = {"client"};
  for (int h = 0; h < x.hosts; ++h) host_names.push_back("host-" + std::to_string(h));
  SimWorld world(context, host_names);

  SimExecutor executor;
  dispatcher::Dispatcher dispatcher(executor, *strategy);
  SimulatedMonitor monitor(p.real("ns_per_op"), context.timeline);
  dispatcher.set_lock_observer([&](const dispatcher::LockedSectionReport& r) { monitor.on_section(r); });
  dispatcher.set_max_requests(static_cast<int>(p.integer("max_requests")));
  dispatcher.set_max_requests_per_host(static_cast<int>(p.integer("max_requests_per_host")));

  auto* run_queue = s4u::Mailbox::by_name("executor");
  std::map<const dispatcher::Call*, double> enqueued_at;
  std::vector<double> latencies;
  int64_t finished = 0;
  double last_finish = 0;

  // Hands the calls the Dispatcher promoted to the worker threads (after the lock is released).
  auto hand_to_workers = [&] {
    // The mailbox carries a heap copy of the shared pointer; the worker takes ownership back.
    for (auto& call : executor.take())
      run_queue->put_init(std::make_unique<CallPtr>(call).release(), 0)->detach();
  };

  HostPicker picker(x.hosts, x.zipf_s);
  Rng arrival_rng = context.rng(kArrivalStream);
  Rng host_rng = context.rng(kHostChoiceStream);
  s4u::Actor::create("arrivals", world.host("client"), [&] {
    for (int64_t i = 0; i < x.calls; ++i) {
      s4u::this_actor::sleep_for(-std::log(1 - arrival_rng.uniform01()) / x.arrival_rate);
      int host = picker.pick(host_rng);
      auto call = dispatcher::Call::Create("host-" + std::to_string(host), "call-" + std::to_string(i));
      // Each call comes from its own application thread, so callers can pile up on the lock.
      s4u::Actor::create("caller-" + std::to_string(i), world.host("client"), [&, call] {
        enqueued_at[call.get()] = SimWorld::now();
        monitor.run_locked([&] { dispatcher.enqueue(call); });
        hand_to_workers();
      });
    }
  });

  Rng server_rng = context.rng(kServerTimeStream);
  for (int w = 0; w < x.threads; ++w) {
    s4u::Actor::create("worker-" + std::to_string(w), world.host("client"), [&] {
      while (true) {
        std::unique_ptr<CallPtr> next(run_queue->get<CallPtr>());
        if (!*next) return;  // no more calls: the pool shuts down
        CallPtr call = *next;
        double started = SimWorld::now();
        if (context.timeline != nullptr) {
          context.timeline->span("queue", call->name() + " queued", enqueued_at[call.get()], started);
        }
        auto* server = world.host(call->host());
        s4u::Comm::sendto(world.host("client"), server, static_cast<uint64_t>(x.request_size));
        s4u::this_actor::sleep_for(x.server_time.sample(server_rng));
        s4u::Comm::sendto(server, world.host("client"), static_cast<uint64_t>(x.response_size));
        if (context.timeline != nullptr) {
          context.timeline->span(s4u::this_actor::get_name(), call->name() + " running", started,
                                 SimWorld::now());
        }
        monitor.run_locked([&] { dispatcher.finished(*call); });
        hand_to_workers();
        latencies.push_back(SimWorld::now() - enqueued_at[call.get()]);
        enqueued_at.erase(call.get());
        last_finish = SimWorld::now();
        if (++finished == x.calls) {
          for (int i = 0; i < x.threads; ++i)
            run_queue->put_init(std::make_unique<CallPtr>().release(), 0)->detach();
        }
      }
    });
  }

  world.run();
  if (finished != x.calls) {
    return Status::Error("only " + std::to_string(finished) + " of " + std::to_string(x.calls) +
                         " calls finished");
  }
  return Metrics{
      {"throughput_rps", static_cast<double>(x.calls) / last_finish},
      {"latency_p50_s", stats::quantile(latencies, 0.50)},
      {"latency_p99_s", stats::quantile(latencies, 0.99)},
      {"lock_hold_max_s", monitor.hold_max()},
      {"lock_hold_total_s", monitor.hold_total()},
      {"lock_wait_total_s", monitor.wait_total()},
      {"blocked_threads_max", static_cast<double>(monitor.blocked_max())},
      {"ops_under_lock", static_cast<double>(monitor.ops_total())},
      {"duration_s", last_finish},
  };
}

}  // namespace perflab::dispatcher_study
