// Sim engine driver: the OkHttp incident. Application threads enqueue calls (open-loop Poisson arrivals,
// or a request log's arrivals and hosts: request_log.h) on the real Dispatcher; `threads` executor workers
// run each call as an HTTP exchange with its host over the simulated network and then call finished(). The
// dispatcher's monitor is simulated (simulated_monitor.h): each locked section of the real Dispatcher — two
// per enqueue(), two per finished(), released in between as in OkHttp — holds it for the elements the real
// code touched under its lock at the lock cost model's prices (lock_cost_model.h), and `lock` says who gets
// it when it is released (barging as a Java monitor, or fifo). What the thread dumps showed — threads piling
// up BLOCKED on the lock while one thread scans — shows here as lock wait time and the number of simulated
// threads blocked at once.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/request_log.h"
#include "scenarios/dispatcher/arrivals.h"
#include "scenarios/dispatcher/dispatcher_study.h"
#include "scenarios/dispatcher/incident_result.h"
#include "scenarios/dispatcher/simulated_monitor.h"
#include "sim/engines/simgrid_world.h"
#include "sim/engines/timeline.h"

namespace perflab::dispatcher_study {
namespace {

namespace s4u = simgrid::s4u;
using dispatcher::CallPtr;

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

// One run: the application threads that enqueue calls, the executor's worker threads that run them, and
// what they measure. Each simulated thread is an actor; the real Dispatcher is shared by all of them, its
// every locked section under the simulated monitor.
class IncidentRun {
 public:
  // `log`: the requests to replay instead of drawing them (may be null).
  IncidentRun(const RunContext& context, const DispatcherOptions& x, dispatcher::Strategy strategy,
              double zipf_s, const dispatcher::RequestLog* log, SimGridWorld& world)
      : context_(context),
        x_(x),
        log_(log),
        world_(world),
        client_(world.host("client")),
        dispatcher_(executor_, strategy),
        monitor_(x.lock, x.lock_cost, context.timeline),
        run_queue_(simgrid::s4u::Mailbox::by_name("executor")),
        arrivals_(x.arrival_rate, static_cast<int>(x.hosts), zipf_s, context.rng(kArrivalStream),
                  context.rng(kHostChoiceStream)),
        server_rng_(context.rng(kServerTimeStream)) {}

  // Sets the limits (before any thread runs: not timed) and starts the arrivals and the workers.
  Status start() {
    Status limit = dispatcher_.set_max_requests(static_cast<int>(x_.max_requests));
    if (limit.ok()) limit = dispatcher_.set_max_requests_per_host(static_cast<int>(x_.max_requests_per_host));
    if (!limit.ok()) return limit;
    monitor_.guard(dispatcher_);
    s4u::Actor::create("arrivals", client_, [this] { arrivals(); });
    for (int w = 0; w < x_.threads; ++w) {
      s4u::Actor::create("worker-" + std::to_string(w), client_, [this] { worker(); });
    }
    return Status::OK();
  }

  Result<IncidentResult> result() const {
    if (finished_ != x_.calls) {
      return Status::Error("only " + std::to_string(finished_) + " of " + std::to_string(x_.calls) +
                           " calls finished");
    }
    return incident_result(monitor_, latencies_, last_finish_);
  }

 private:
  // Open-loop arrivals: Poisson to Zipf-picked hosts, or the log's requests at their times. Each call comes
  // from its own application thread, so callers can pile up on the lock as the 52 threads blocked in
  // enqueue() did.
  void arrivals() {
    for (int64_t i = 0; i < x_.calls; ++i) {
      int host = 0;
      if (log_ != nullptr) {
        const dispatcher::LoggedRequest& request = log_->requests[static_cast<size_t>(i)];
        s4u::this_actor::sleep_until(request.time_s);
        host = request.host;
      } else {
        const PoissonArrivals::Arrival arrival = arrivals_.next();
        s4u::this_actor::sleep_for(arrival.gap_s);
        host = arrival.host;
      }
      auto call = dispatcher::Call::Create("host-" + std::to_string(host), "call-" + std::to_string(i));
      if (log_ != nullptr && log_->has_durations) {
        logged_server_time_[call.get()] = *log_->requests[static_cast<size_t>(i)].duration_s;
      }
      s4u::Actor::create("caller-" + std::to_string(i), client_, [this, call] {
        enqueued_at_[call.get()] = SimGridWorld::now();
        dispatcher_.enqueue(call);
        hand_to_workers();
      });
    }
  }

  // An executor thread: runs calls as HTTP exchanges with their host, then tells the Dispatcher.
  void worker() {
    while (true) {
      CallPtr call = *SimGridWorld::receive<CallPtr>(run_queue_);
      if (!call) return;  // no more calls: the pool shuts down
      const double started = SimGridWorld::now();
      if (context_.timeline != nullptr) {
        context_.timeline->span("queue", call->name() + " queued", enqueued_at_[call.get()], started);
      }
      auto* server = world_.host(call->host());
      world_.transfer(client_, server, x_.request_size, "request " + call->name());
      auto logged = logged_server_time_.find(call.get());
      if (logged != logged_server_time_.end()) {
        s4u::this_actor::sleep_for(logged->second);
        logged_server_time_.erase(logged);
      } else {
        s4u::this_actor::sleep_for(x_.server_time.sample(server_rng_));
      }
      world_.transfer(server, client_, x_.response_size, "response " + call->name());
      dispatcher_.finished(*call);
      hand_to_workers();
      latencies_.push_back(SimGridWorld::now() - enqueued_at_[call.get()]);
      enqueued_at_.erase(call.get());
      last_finish_ = SimGridWorld::now();
      if (++finished_ == x_.calls) {
        for (int i = 0; i < x_.threads; ++i) world_.post(run_queue_, std::make_unique<CallPtr>(), 0);
      }
    }
  }

  // The calls the Dispatcher promoted go to the worker threads once the caller is out of the Dispatcher
  // (the real code never calls the executor under its lock).
  void hand_to_workers() {
    for (auto& call : executor_.take()) world_.post(run_queue_, std::make_unique<CallPtr>(call), 0);
  }

  const RunContext& context_;
  const DispatcherOptions& x_;
  const dispatcher::RequestLog* log_;
  SimGridWorld& world_;
  s4u::Host* client_;
  SimExecutor executor_;
  dispatcher::Dispatcher dispatcher_;
  SimulatedMonitor monitor_;
  s4u::Mailbox* run_queue_;
  PoissonArrivals arrivals_;
  Rng server_rng_;
  std::map<const dispatcher::Call*, double> enqueued_at_;
  std::map<const dispatcher::Call*, double> logged_server_time_;  // the log's duration_s, when it has one
  std::vector<double> latencies_;
  int64_t finished_ = 0;
  double last_finish_ = 0;
};

}  // namespace

Result<IncidentResult> run_incident(const RunContext& context) {
  const DispatcherOptions x = knobs().options(context.params);
  auto setup = incident_setup(x);
  if (!setup.ok()) return setup.status();

  std::vector<std::string> host_names = {"client"};
  for (int h = 0; h < x.hosts; ++h) host_names.push_back("host-" + std::to_string(h));
  SimGridWorld world(context, host_names);
  const dispatcher::RequestLog* log =
      x.request_log.empty() ? nullptr : &context.inputs.get<dispatcher::RequestLog>();
  IncidentRun run(context, x, setup->strategy, setup->zipf_s, log, world);
  Status started = run.start();
  if (!started.ok()) return started;
  world.run();
  return run.result();
}

}  // namespace perflab::dispatcher_study
