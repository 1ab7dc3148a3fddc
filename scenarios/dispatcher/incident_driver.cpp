// See incident_driver.h. The wire protocol (a request, its response, the end of the run) is encoded here
// once, so the sim charges the bytes the real engine sends.
#include "scenarios/dispatcher/incident_driver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <queue>
#include <unordered_map>

#include "scenarios/dispatcher/arrivals.h"
#include "sim/engines/real/wire_codec.h"
#include "sim/sampling/units.h"

namespace perflab::dispatcher_study {
namespace {

using dispatcher::CallPtr;
using transport::Message;
using transport::Node;

// On the wire, between the client and a host.
enum Wire : std::uint32_t {
  kRequest = 1,   // client -> host: a call's request; id: the call -> kResponse
  kResponse = 2,  // host -> client: its response; id: the call
  kDone = 3,      // client -> host: every call finished: the host ends
};
// On the client's channels only.
enum Hand : std::uint32_t {
  kCall = 11,    // a call the Dispatcher promoted, for a worker; id: the call
  kStop = 12,    // the executor shuts down: the worker ends
  kStart = 13,   // an application thread's go: the clock's start in the payload
  kFailed = 14,  // the run failed: the worker waiting for this reply gives up
};

// The client waits for answers at most this long before it checks whether a thread failed.
constexpr double kFailureCheckS = 1.0;

// A request: its call and how long the server is to take, padded with zeros to `size` bytes.
constexpr std::size_t kRequestFields = sizeof(std::uint64_t) + sizeof(double);

std::string encode_request(std::uint64_t call, double server_time_s, std::size_t size) {
  std::string bytes = real::Writer().put(call).put(server_time_s).take();
  bytes.resize(std::max(size, bytes.size()), '\0');
  return bytes;
}

Result<double> decode_server_time(const Message& request) {
  real::Reader r(request.payload);
  std::uint64_t call = 0;
  double server_time_s = 0;
  if (!r.get(call) || !r.get(server_time_s) || call != request.id || !(server_time_s >= 0)) {
    return real::malformed("request");
  }
  return server_time_s;
}

std::string encode_time(double t) {
  return real::Writer().put(t).take();
}

double decode_time(const std::string& payload) {
  double t = 0;
  real::Reader(payload).get(t);
  return t;
}

// A host: answers each request once its server time has passed, `response_size` bytes, until the client
// says the run is over (or goes away, when the run failed: the client's error is the run's).
Status serve_host(Node& host, std::size_t response_size) {
  struct Due {
    double at;
    std::uint64_t order;  // requests due at the same instant are answered in arrival order
    std::uint64_t call;
    bool operator>(const Due& other) const { return at != other.at ? at > other.at : order > other.order; }
  };
  std::priority_queue<Due, std::vector<Due>, std::greater<>> pending;
  std::uint64_t order = 0;
  bool done = false;
  while (!done || !pending.empty()) {
    const double wake = pending.empty() ? transport::kForever : pending.top().at;
    auto batch = host.receive(wake);
    if (!batch.ok()) return batch.status();
    for (const Message& message : *batch) {
      if (message.kind == transport::kPeerEnded) return Status::OK();
      if (message.kind == kDone) {
        done = true;
      } else if (message.kind == kRequest) {
        auto server_time = decode_server_time(message);
        if (!server_time.ok()) return server_time.status();
        pending.push({host.now() + *server_time, order++, message.id});
      } else {
        return Status::Error("unexpected message kind " + std::to_string(message.kind) + " at a host");
      }
    }
    // An empty batch is the wake-up: its deadline has passed, whatever the clock's rounding says.
    const double now = batch->empty() ? std::max(host.now(), wake) : host.now();
    while (!pending.empty() && pending.top().at <= now) {
      Status sent = host.send(0, kResponse, pending.top().call, std::string(response_size, '\0'));
      if (!sent.ok()) return sent;
      pending.pop();
    }
  }
  return Status::OK();
}

// A new thread's first malloc sets up its allocator state (glibc: attaches an arena, creating one for the
// first threads of the process, and allocates the thread's tcache). Every application thread would
// otherwise do that inside its enqueue's locked section (the ready queue's new node), and every worker
// inside its first promotion: work that a long-lived service thread did long before, and that the lock
// cost model does not charge. Each thread does it first (in the sim it changes nothing).
void warm_up_allocator() {
  void* volatile block = std::malloc(64);  // volatile: the allocation may not be elided
  std::free(block);
}

// The executor the Dispatcher hands promoted calls to (OkHttp's ExecutorService): a queue its workers take
// from. The Dispatcher calls it once out of its locked sections.
class ChannelExecutor : public dispatcher::Executor {
 public:
  ChannelExecutor(transport::Channel& calls, const std::unordered_map<const dispatcher::Call*, size_t>& index)
      : calls_(calls), index_(index) {}
  Status execute(const CallPtr& call) override {
    auto i = index_.find(call.get());
    if (i == index_.end()) return Status::Error("the executor was handed an unknown call " + call->name());
    calls_.put(Message{0, kCall, i->second, {}});
    return Status::OK();
  }

 private:
  transport::Channel& calls_;
  const std::unordered_map<const dispatcher::Call*, size_t>& index_;
};

class IncidentClient {
 public:
  IncidentClient(Node& client, const DispatcherOptions& x, const IncidentSetup& setup,
                 const std::vector<ScheduledCall>& schedule, Rng server_rng, const IncidentSeams& seams)
      : client_(client),
        x_(x),
        schedule_(schedule),
        seams_(seams),
        server_rng_(server_rng),
        calls_queue_(client.channel()),
        start_(client.channel()),
        executor_(*calls_queue_, index_),
        dispatcher_(executor_, setup.strategy),
        enqueued_at_(schedule.size()),
        runs_(std::make_unique<std::atomic<int>[]>(schedule.size())) {
    run_.latencies.resize(schedule.size());
    for (size_t i = 0; i < schedule_.size(); ++i) {
      calls_.push_back(dispatcher::Call::Create(host_name(schedule_[i].host), "call-" + std::to_string(i)));
      index_[calls_.back().get()] = i;
      replies_.push_back(client.channel());
    }
  }

  Result<IncidentRun> run() {
    // The limits, before any call (not measured), then every section under the engine's monitor.
    Status ready = dispatcher_.set_max_requests(static_cast<int>(x_.max_requests));
    if (ready.ok()) ready = dispatcher_.set_max_requests_per_host(static_cast<int>(x_.max_requests_per_host));
    if (!ready.ok()) return ready;
    seams_.guard(dispatcher_);
    if (ready.ok()) ready = spawn_hosts();  // before any thread: the real engine forks them
    if (ready.ok()) ready = start_threads();
    if (ready.ok()) {
      const double origin = client_.now() + seams_.start_margin_s;
      for (size_t i = 0; i < schedule_.size(); ++i) start_->put(Message{0, kStart, 0, encode_time(origin)});
      run_.duration_s = -origin;  // plus the last finish, below
      double last_arrival = origin;
      for (const ScheduledCall& call : schedule_) last_arrival = std::max(last_arrival, origin + call.time_s);
      ready = route_replies(last_arrival);
    }
    if (!ready.ok()) abort(ready);
    for (size_t w = 0; w < workers_; ++w) calls_queue_->put(Message{0, kStop, 0, {}});
    client_.join_threads();
    if (!failure_.empty()) return Status::Error(failure_);
    for (const transport::Peer peer : hosts_) {
      Status sent = send(peer, kDone, 0, "");
      if (!sent.ok()) return sent;
    }
    return finish();
  }

 private:
  Status spawn_hosts() {
    for (int h = 0; h < x_.hosts; ++h) {
      const std::size_t response_size = static_cast<std::size_t>(x_.response_size);
      auto peer = client_.spawn(host_name(h),
                                [response_size](Node& host) { return serve_host(host, response_size); });
      if (!peer.ok()) return peer.status();
      hosts_.push_back(*peer);
    }
    return Status::OK();
  }

  // The executor's workers, then one application thread per call: each waits for the clock's start.
  Status start_threads() {
    for (int64_t w = 0; w < x_.threads; ++w, ++workers_) {
      Status started = client_.start_thread("worker-" + std::to_string(w), [this] { work(); });
      if (!started.ok()) return started;
    }
    for (size_t i = 0; i < schedule_.size(); ++i) {
      Status started = client_.start_thread("caller-" + std::to_string(i), [this, i] { call(i); });
      if (!started.ok()) return started;
      ++callers_;
    }
    return Status::OK();
  }

  // An application thread: sleeps until its call's arrival, then enqueues it (blocking on the lock as the
  // incident's 52 threads did).
  void call(size_t i) {
    warm_up_allocator();
    auto start = start_->take();
    if (!start.ok()) return fail(start.status().message());
    if (start->kind != kStart) return;
    client_.sleep_until(decode_time(start->payload) + schedule_[i].time_s);
    if (aborting_) return;
    enqueued_at_[i] = client_.now();
    Status enqueued = dispatcher_.enqueue(calls_[i]);
    if (!enqueued.ok()) fail("enqueue of call-" + std::to_string(i) + ": " + enqueued.message());
  }

  // An executor worker: runs the calls it is handed until the executor shuts down.
  void work() {
    warm_up_allocator();
    for (;;) {
      auto handed = calls_queue_->take();
      if (!handed.ok()) return fail(handed.status().message());
      if (handed->kind == kStop) return;
      if (aborting_) continue;
      Status served = serve(handed->id);
      if (!served.ok()) fail(served.message());
    }
  }

  // One call: its request to its host, the response the client's body routes back, then finished().
  Status serve(size_t i) {
    runs_[i].fetch_add(1);
    const double started = client_.now();
    if (seams_.queued) seams_.queued(calls_[i]->name(), enqueued_at_[i], started);
    double server_time = 0;
    {
      std::lock_guard<std::mutex> lock(draw_mutex_);
      server_time =
          schedule_[i].server_time_s ? *schedule_[i].server_time_s : x_.server_time.sample(server_rng_);
    }
    const auto request_size = static_cast<std::size_t>(x_.request_size);
    Status sent = send(hosts_.at(static_cast<size_t>(schedule_[i].host)), kRequest, i,
                       encode_request(i, server_time, request_size));
    if (!sent.ok()) return sent;
    auto reply = replies_[i]->take();
    if (!reply.ok()) return reply.status();
    if (reply->kind != kResponse) return Status::OK();  // the run failed: its error is already told
    Status finished = dispatcher_.finished(*calls_[i]);
    const double now = client_.now();
    std::lock_guard<std::mutex> lock(done_mutex_);
    if (!finished.ok())
      return Status::Error("finished(call-" + std::to_string(i) + "): " + finished.message());
    run_.latencies[i] = now - enqueued_at_[i];
    ++run_.calls_finished;
    last_finish_ = std::max(last_finish_, now);
    return Status::OK();
  }

  // The client's body, while the threads run: every host's response to the worker waiting for it.
  Status route_replies(double last_arrival) {
    const size_t calls = schedule_.size();
    double answered_at = client_.now();
    for (size_t replies = 0; replies < calls;) {
      if (aborting_) return Status::Error(failure());
      auto batch = client_.receive(client_.now() + kFailureCheckS);
      if (!batch.ok()) return batch.status();
      const double now = client_.now();
      if (batch->empty() && (requests_sent_ > replies || now > last_arrival) &&
          now - answered_at > x_.stuck_after_s) {
        return Status::Error("no call was answered for " +
                             format_quantity(x_.stuck_after_s, Quantity::kDuration, Spelling::kReadable) +
                             " (" + std::to_string(replies) + " of " + std::to_string(calls) +
                             " answered): the run is stuck, or its calls last longer than the driver waits "
                             "(params.stuck_after)");
      }
      if (!batch->empty()) answered_at = now;
      for (Message& message : std::move(batch).value()) {
        if (message.kind == transport::kPeerEnded) {
          return Status::Error("host " + std::to_string(message.from) +
                               " ended before the run: " + message.payload);
        }
        if (message.kind != kResponse || message.id >= calls) {
          return Status::Error("unexpected message kind " + std::to_string(message.kind) + " id " +
                               std::to_string(message.id) + " at the client");
        }
        count_bytes("response", message.wire_bytes());
        replies_[message.id]->put(std::move(message));
        ++replies;
      }
    }
    return Status::OK();
  }

  Status send(transport::Peer peer, std::uint32_t kind, std::uint64_t id, std::string payload) {
    count_bytes(kind == kRequest ? "request" : "done", Message::kHeaderBytes + payload.size());
    if (kind == kRequest) ++requests_sent_;
    return client_.send(peer, kind, id, std::move(payload));
  }

  void count_bytes(const char* kind, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(done_mutex_);
    run_.bytes_sent[kind] += bytes;
  }

  void fail(const std::string& reason) {
    std::lock_guard<std::mutex> lock(done_mutex_);
    if (failure_.empty()) failure_ = reason;
    aborting_ = true;
  }

  std::string failure() {
    std::lock_guard<std::mutex> lock(done_mutex_);
    return failure_;
  }

  // Every thread ends soon: the callers not yet started do not enqueue, the workers waiting for a reply
  // give up, the others run no more calls.
  void abort(const Status& why) {
    fail(why.message());
    for (size_t i = 0; i < callers_; ++i) start_->put(Message{0, kFailed, 0, {}});
    for (auto& reply : replies_) reply->put(Message{0, kFailed, 0, {}});
  }

  Result<IncidentRun> finish() {
    for (size_t i = 0; i < schedule_.size(); ++i) {
      if (runs_[i] != 1) {
        return Status::Error("call-" + std::to_string(i) + " ran " + std::to_string(runs_[i].load()) +
                             " times, expected exactly once");
      }
      ++run_.calls_run;
    }
    if (run_.calls_finished != static_cast<std::int64_t>(schedule_.size())) {
      return Status::Error("only " + std::to_string(run_.calls_finished) + " of " +
                           std::to_string(schedule_.size()) + " calls finished");
    }
    run_.duration_s += last_finish_;
    return std::move(run_);
  }

  Node& client_;
  const DispatcherOptions& x_;
  const std::vector<ScheduledCall>& schedule_;
  const IncidentSeams& seams_;
  std::mutex draw_mutex_;
  Rng server_rng_;
  std::vector<transport::Peer> hosts_;  // by host number

  // Written before the threads start, read-only while they run.
  std::vector<CallPtr> calls_;
  std::unordered_map<const dispatcher::Call*, size_t> index_;
  std::vector<std::unique_ptr<transport::Channel>> replies_;  // by call: its response, routed
  std::unique_ptr<transport::Channel> calls_queue_;           // the executor's queue
  std::unique_ptr<transport::Channel> start_;                 // the application threads' go
  size_t workers_ = 0;
  size_t callers_ = 0;

  ChannelExecutor executor_;
  dispatcher::Dispatcher dispatcher_;
  // Per call, each written by one thread: the application thread (enqueued_at_), its worker (latencies).
  std::vector<double> enqueued_at_;
  std::unique_ptr<std::atomic<int>[]> runs_;  // times each call was run: 1 when all is well
  std::atomic<bool> aborting_{false};
  std::atomic<size_t> requests_sent_{0};

  std::mutex done_mutex_;  // the rest
  IncidentRun run_;
  double last_finish_ = 0;
  std::string failure_;
};

}  // namespace

std::string host_name(int host) {
  return "host-" + std::to_string(host);
}

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

const dispatcher::RequestLog* request_log_of(const RunContext& context, const DispatcherOptions& x) {
  return x.request_log.empty() ? nullptr : &context.inputs.get<dispatcher::RequestLog>();
}

Result<IncidentRun> drive_incident(Node& client, const DispatcherOptions& x, const IncidentSetup& setup,
                                   const std::vector<ScheduledCall>& schedule, Rng server_rng,
                                   const IncidentSeams& seams) {
  if (x.request_size < kRequestFields) {
    return Status::Error("request_size = " + std::to_string(static_cast<std::int64_t>(x.request_size)) +
                         " B: a request carries its call and server time, expected at least " +
                         std::to_string(kRequestFields) + " B");
  }
  IncidentClient run(client, x, setup, schedule, server_rng, seams);
  return run.run();
}

}  // namespace perflab::dispatcher_study
