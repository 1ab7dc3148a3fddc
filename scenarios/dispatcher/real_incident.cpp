// Real engine driver: the OkHttp incident (incident.cpp) on real threads, in real time. The real Dispatcher
// (models/dispatcher) with the point's strategy hands promoted calls to a real thread pool of `threads`
// workers (thread_pool_executor.h, OkHttp's ExecutorService); a worker runs a call by waiting its HTTP
// exchange on the real clock — one-way latency, request, the drawn server_time, latency, response — on an
// absolute deadline, then calls finished(). Every call comes from its own application thread, made before
// the clock starts and asleep until the call's arrival: the sim's Poisson arrivals (arrivals.h, the same
// streams, so the same times and hosts) or the request log's. Every locked section of the Dispatcher runs
// under a real std::mutex (real_monitor.h) with timestamps around it, so the run measures what the sim
// charges: lock hold, lock wait, the most threads blocked at once, throughput.
//
// The draws that are not made up front — server_time and the network's latencies — come from the sim's
// streams too, in the order the workers start their calls, which the threads' timing decides: the same
// values, not always for the same calls. The network is applied per exchange (latency plus size /
// bandwidth), without the sharing of the client's link that the sim models.
//
// Every thread is joined before the run returns, on failure too; a stuck run ends after kIdleTimeout with
// an error, and one that outlives the point timeout is killed by the runner with its process.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <vector>

#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/request_log.h"
#include "scenarios/dispatcher/arrivals.h"
#include "scenarios/dispatcher/dispatcher_study.h"
#include "scenarios/dispatcher/incident_result.h"
#include "scenarios/dispatcher/real_monitor.h"
#include "scenarios/dispatcher/thread_pool_executor.h"
#include "sim/engines/real/deadline_sleeper.h"
#include "sim/engines/real/realtime.h"
#include "sim/study/seeding.h"

namespace perflab::dispatcher_study {
namespace {

using dispatcher::CallPtr;

// From the threads' creation to the clock's start: the application threads go to sleep on their deadlines.
constexpr std::int64_t kStartMarginNs = 200'000'000;
// No call finished for this long: the run is stuck (or its calls are longer than the real engine is for).
constexpr std::chrono::seconds kIdleTimeout{60};
// One application thread per call: beyond this many, the machine's thread limit is the experiment.
constexpr std::int64_t kMaxCalls = 20'000;
// Locked sections a call takes (enqueue and its promotion, finished and its promotion), and a few more: the
// monitor's records are made for them up front, so that none is allocated under the lock.
constexpr size_t kSectionsPerCall = 4;
constexpr size_t kSpareSections = 64;

std::int64_t to_ns(double seconds) {
  return static_cast<std::int64_t>(seconds * 1e9);
}

// A call as the application makes it: when (seconds after the clock starts), to which host, and the
// request log's server time when it has one.
struct ScheduledCall {
  double time_s;
  int host;
  std::optional<double> server_time_s;
};

std::vector<ScheduledCall> schedule_of(const RunContext& context, const DispatcherOptions& x, double zipf_s,
                                       const dispatcher::RequestLog* log) {
  std::vector<ScheduledCall> schedule;
  schedule.reserve(static_cast<size_t>(x.calls));
  if (log != nullptr) {
    for (const auto& request : log->requests)
      schedule.push_back({request.time_s, request.host, request.duration_s});
    return schedule;
  }
  PoissonArrivals arrivals(x.arrival_rate, static_cast<int>(x.hosts), zipf_s, context.rng(kArrivalStream),
                           context.rng(kHostChoiceStream));
  double time = 0;
  for (int64_t i = 0; i < x.calls; ++i) {
    const PoissonArrivals::Arrival arrival = arrivals.next();
    time += arrival.gap_s;
    schedule.push_back({time, arrival.host, std::nullopt});
  }
  return schedule;
}

// A new thread's first malloc sets up its allocator state (glibc: attaches an arena, creating one for
// the first threads of the process, and allocates the thread's tcache). Every application thread would
// otherwise do that inside its enqueue's locked section (the ready queue's new node), and every worker
// inside its first promotion: work that a long-lived service thread did long before, and that the sim does
// not charge. Each thread does it here, before the clock starts.
void warm_up_allocator() {
  void* volatile block = std::malloc(64);  // volatile: the allocation may not be elided
  std::free(block);
}

// Joins every joinable thread of `threads` when it goes out of scope, whatever path leaves the scope.
class JoinAll {
 public:
  explicit JoinAll(std::vector<std::thread>& threads) : threads_(threads) {}
  ~JoinAll() {
    for (auto& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }
  JoinAll(const JoinAll&) = delete;
  JoinAll& operator=(const JoinAll&) = delete;

 private:
  std::vector<std::thread>& threads_;
};

class RealIncidentRun {
 public:
  RealIncidentRun(const RunContext& context, const DispatcherOptions& x, dispatcher::Strategy strategy,
                  std::vector<ScheduledCall> schedule)
      : x_(x),
        schedule_(std::move(schedule)),
        network_(context.network),
        server_rng_(context.rng(kServerTimeStream)),
        latency_rng_(context.rng(kNetworkLatencyStream)),
        enqueued_ns_(schedule_.size()),
        latencies_(schedule_.size()),
        runs_(std::make_unique<std::atomic<int>[]>(schedule_.size())),
        monitor_(x.lock_cost, kSectionsPerCall * schedule_.size() + kSpareSections),
        dispatcher_(pool_, strategy),
        pool_(
            static_cast<int>(x.threads), [this](const CallPtr& call) { serve(call); }, warm_up_allocator) {
    for (size_t i = 0; i < schedule_.size(); ++i) {
      calls_.push_back(
          dispatcher::Call::Create("host-" + std::to_string(schedule_[i].host), "call-" + std::to_string(i)));
      index_[calls_.back().get()] = i;
    }
  }

  Result<RealIncidentResult> run(bool realtime) {
    // The limits, before any call (not measured), then every section under the real monitor.
    Status limit = dispatcher_.set_max_requests(static_cast<int>(x_.max_requests));
    if (limit.ok()) limit = dispatcher_.set_max_requests_per_host(static_cast<int>(x_.max_requests_per_host));
    if (!limit.ok()) return limit;
    monitor_.guard(dispatcher_);

    std::promise<std::int64_t> start;
    std::shared_future<std::int64_t> started = start.get_future().share();
    std::vector<std::thread> callers;
    callers.reserve(schedule_.size());
    JoinAll join_callers(callers);
    try {
      for (size_t i = 0; i < schedule_.size(); ++i) {
        callers.emplace_back([this, i, started] { call_from_application(i, started); });
      }
    } catch (const std::system_error& error) {
      aborting_ = true;
      start.set_value(-1);
      return Status::Error("cannot start application thread " + std::to_string(callers.size() + 1) + " of " +
                           std::to_string(schedule_.size()) + ": " + error.what());
    }
    start_ns_ = real::monotonic_ns() + kStartMarginNs;
    start.set_value(start_ns_);

    std::string failure = wait_for_calls();
    if (!failure.empty()) {
      aborting_ = true;  // the callers stop enqueueing, the workers stop waiting: every thread ends soon
      return Status::Error(failure);
    }
    for (size_t i = 0; i < schedule_.size(); ++i) {
      if (runs_[i] != 1) {
        return Status::Error("call-" + std::to_string(i) + " ran " + std::to_string(runs_[i].load()) +
                             " times, expected exactly once");
      }
    }
    const double duration = static_cast<double>(last_finish_ns_ - start_ns_) * 1e-9;
    const real::OversleepStats oversleep = sleeper_.stats();
    return RealIncidentResult{incident_result(monitor_, latencies_, duration), oversleep.sleeps,
                              oversleep.mean_s(), static_cast<double>(oversleep.max_ns) * 1e-9, realtime};
  }

 private:
  // An application thread: sleeps until its call's arrival, then enqueues it (blocking on the lock as the
  // incident's 52 threads did).
  void call_from_application(size_t i, const std::shared_future<std::int64_t>& started) {
    warm_up_allocator();
    const std::int64_t origin = started.get();
    if (origin < 0 || aborting_) return;
    sleeper_.sleep_until(origin + to_ns(schedule_[i].time_s));
    if (aborting_) return;
    enqueued_ns_[i] = real::monotonic_ns();
    Status enqueued = dispatcher_.enqueue(calls_[i]);
    if (!enqueued.ok()) fail("enqueue of call-" + std::to_string(i) + ": " + enqueued.message());
  }

  // An executor worker runs a call: its exchange on the real clock, then finished().
  void serve(const CallPtr& call) {
    const size_t i = index_.at(call.get());
    runs_[i].fetch_add(1);
    const std::int64_t started = real::monotonic_ns();
    const double exchange = exchange_seconds(schedule_[i]);
    if (!aborting_) sleeper_.sleep_until(started + to_ns(exchange));
    Status finished = dispatcher_.finished(*call);
    const std::int64_t now = real::monotonic_ns();
    latencies_[i] = static_cast<double>(now - enqueued_ns_[i]) * 1e-9;
    std::lock_guard<std::mutex> lock(done_mutex_);
    if (!finished.ok() && failure_.empty())
      failure_ = "finished(call-" + std::to_string(i) + "): " + finished.message();
    ++finished_;
    last_finish_ns_ = std::max(last_finish_ns_, now);
    done_.notify_all();
  }

  // The exchange's duration: request and response each a drawn one-way latency plus size / bandwidth,
  // around the server's time. Drawn on the worker's thread, one worker at a time.
  double exchange_seconds(const ScheduledCall& call) {
    std::lock_guard<std::mutex> lock(draw_mutex_);
    const double request = network_.latency.sample(latency_rng_) + x_.request_size / network_.bandwidth;
    const double server = call.server_time_s ? *call.server_time_s : x_.server_time.sample(server_rng_);
    const double response = network_.latency.sample(latency_rng_) + x_.response_size / network_.bandwidth;
    return request + server + response;
  }

  void fail(const std::string& reason) {
    std::lock_guard<std::mutex> lock(done_mutex_);
    if (failure_.empty()) failure_ = reason;
    done_.notify_all();
  }

  // Until every call finished or one failed; an error when no call finishes for kIdleTimeout.
  std::string wait_for_calls() {
    std::unique_lock<std::mutex> lock(done_mutex_);
    const size_t calls = schedule_.size();
    while (finished_ < calls && failure_.empty()) {
      const size_t before = finished_;
      if (!done_.wait_for(lock, kIdleTimeout, [&] { return finished_ != before || !failure_.empty(); })) {
        return "no call finished for " + std::to_string(kIdleTimeout.count()) + " s (" +
               std::to_string(finished_) + " of " + std::to_string(calls) +
               " finished): the run is stuck, or its calls last longer than the "
               "real engine waits";
      }
    }
    return failure_;
  }

  const DispatcherOptions& x_;
  const std::vector<ScheduledCall> schedule_;
  const NetworkSpec network_;
  std::mutex draw_mutex_;
  Rng server_rng_;
  Rng latency_rng_;
  real::DeadlineSleeper sleeper_;

  // Per call, each written by one thread: the application thread (enqueued_ns_), the worker (latencies_).
  std::vector<CallPtr> calls_;
  std::unordered_map<const dispatcher::Call*, size_t> index_;  // read-only once the threads run
  std::vector<std::int64_t> enqueued_ns_;
  std::vector<double> latencies_;
  std::unique_ptr<std::atomic<int>[]> runs_;  // times each call was run: 1 when all is well
  std::atomic<bool> aborting_{false};
  std::int64_t start_ns_ = 0;

  std::mutex done_mutex_;
  std::condition_variable done_;
  size_t finished_ = 0;
  std::int64_t last_finish_ns_ = 0;
  std::string failure_;

  RealMonitor monitor_;
  dispatcher::Dispatcher dispatcher_;  // before the pool, so the pool's workers are joined first
  dispatcher::ThreadPoolExecutor pool_;
};

}  // namespace

Result<RealIncidentResult> run_real_incident(const RunContext& context) {
  const DispatcherOptions x = knobs().options(context.params);
  auto setup = incident_setup(x);
  if (!setup.ok()) return setup.status();
  if (x.calls > kMaxCalls) {
    return Status::Error("calls = " + std::to_string(x.calls) +
                         ": the real engine makes one application thread per "
                         "call, expected at most " +
                         std::to_string(kMaxCalls));
  }
  if (!(context.network.bandwidth > 0)) {
    return Status::Error("[network] bandwidth must be positive for the real engine's exchanges");
  }
  const dispatcher::RequestLog* log =
      x.request_log.empty() ? nullptr : &context.inputs.get<dispatcher::RequestLog>();

  // Before any thread exists: they inherit it.
  const bool realtime = x.sched_fifo && real::request_realtime_priority();
  RealIncidentRun run(context, x, setup->strategy, schedule_of(context, x, setup->zipf_s, log));
  return run.run(realtime);
}

}  // namespace perflab::dispatcher_study
