// The okhttp-jvm strategy's micro workload: the grid point's workload on the real OkHttp 3.13.1, a session
// of its own with the scenario run's JVM (started by prepare_okhttp_jvm in the parent before the runs are
// forked; scenarios/dispatcher/jvm/WorkloadRunner.java). The micro engine's protocol is unchanged —
// warm-up, repetitions, median; set_up and tear_down untimed — with each step a command to the JVM, and
// the JVM's own clock around the timed part (measured_seconds), so the socket stays off the clock.
// The real library is not instrumented: ops_under_lock is 0 for it.
#include <memory>
#include <sstream>

#include "scenarios/dispatcher/dispatcher_study.h"
#include "scenarios/dispatcher/jvm/okhttp_jvm.h"

namespace perflab::dispatcher_study {
namespace {

constexpr const char* kWorkloadRunner = "perflab.dispatcher.WorkloadRunner";

struct JvmRun {
  std::unique_ptr<okhttp_jvm::JvmSession> jvm;
  Result<double> seconds = Status::Error("no run yet");
};

}  // namespace

PointInputs prepare_okhttp_jvm() {
  auto started = okhttp_jvm::JvmServer::Start(kWorkloadRunner);
  return PointInputs(std::make_shared<const SharedJvm>(
      started.ok() ? SharedJvm(std::shared_ptr<const okhttp_jvm::JvmServer>(std::move(started).value()))
                   : SharedJvm(started.status())));
}

Result<MicroWorkloadOf<WorkloadReport>> setup_okhttp_jvm_workload(const DispatcherOptions& options,
                                                                  const PointInputs& inputs) {
  const int64_t n = options.n;
  const std::string setup = "setup " + std::string(dispatcher::kWorkloadNames.name(options.workload)) + " " +
                            std::to_string(n) + " " + std::to_string(options.max_requests) + " " +
                            std::to_string(options.max_requests_per_host);
  const SharedJvm& server = inputs.get<SharedJvm>();
  if (!server.ok()) return server.status();
  auto session = (*server)->connect();
  if (!session.ok()) return session.status();
  auto state = std::make_shared<JvmRun>();
  state->jvm = std::move(session).value();

  MicroWorkloadOf<WorkloadReport> micro;
  micro.set_up = [state, setup]() { return state->jvm->request(setup).status(); };
  micro.run = [state, n]() {
    auto reply = state->jvm->request("run");
    Metrics counters;
    if (!reply.ok()) {
      state->seconds = reply.status();
      return counters;
    }
    std::istringstream fields(*reply);
    double seconds = 0;
    int64_t calls = 0, executed = 0;
    fields >> seconds >> calls >> executed;
    if (!fields || calls != n || executed != n) {
      state->seconds = Status::Error("okhttp-jvm: the run handed " + std::to_string(executed) + " of " +
                                     std::to_string(n) + " calls to the executor (reply \"" + *reply + "\")");
    } else {
      state->seconds = seconds;
    }
    counters["calls"] = static_cast<double>(calls);
    return counters;
  };
  micro.measured_seconds = [state]() { return state->seconds; };
  micro.tear_down = [state]() { (void)state->jvm->request("teardown"); };
  micro.report = [n](double seconds, const Metrics&) {
    return WorkloadReport{seconds, seconds * 1e9 / static_cast<double>(n), 0, 0};
  };
  return micro;
}

}  // namespace perflab::dispatcher_study
