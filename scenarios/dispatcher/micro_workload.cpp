// Micro engine driver: one grid point = one whole workload on the real Dispatcher (models/dispatcher),
// timed by the harness's Google Benchmark engine the way the PR timed its benchmark (see WorkloadRun).
// ns_per_op (seconds / elements touched under the lock) is one hot thread's cost per element: the floor
// of what the incident simulation charges on real threads (lock_cost_model.h, calibrate-real.toml).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/dispatcher/request_log.h"
#include "models/dispatcher/workloads.h"
#include "scenarios/dispatcher/dispatcher_study.h"

namespace perflab::dispatcher_study {

Result<MicroWorkloadOf<WorkloadReport>> setup_micro_workload(const Params& params,
                                                             const PointInputs& inputs) {
  const DispatcherOptions o = knobs().options(params);
  const std::optional<dispatcher::Strategy> strategy = cpp_port(o.strategy);
  if (!strategy && !o.request_log.empty()) {
    return Status::Error(
        "request_log runs on the C++ strategies, expected strategy scan, counter or indexed");
  }
  if (!strategy) return setup_okhttp_jvm_workload(o, inputs);
  std::vector<std::string> logged_hosts;  // the request log's host sequence, if the point has one
  if (!o.request_log.empty()) logged_hosts = inputs.get<dispatcher::RequestLog>().host_sequence();
  const dispatcher::Workload workload = o.workload;
  const int n = static_cast<int>(o.n);
  const int max_requests = static_cast<int>(o.max_requests);
  const int max_per_host = static_cast<int>(o.max_requests_per_host);

  // The PR's benchmark timed only its enqueue loop: the dispatcher is built before the clock starts
  // and what is left is freed after it stops.
  auto prepared = std::make_shared<std::unique_ptr<dispatcher::WorkloadRun>>();
  MicroWorkloadOf<WorkloadReport> micro;
  micro.set_up = [=]() {
    auto run = logged_hosts.empty()
                   ? dispatcher::WorkloadRun::Create(workload, *strategy, n, max_requests, max_per_host)
                   : dispatcher::WorkloadRun::Create(logged_hosts, *strategy, max_requests, max_per_host);
    if (!run.ok()) return run.status();
    *prepared = std::move(run).value();
    return Status::OK();
  };
  micro.run = [prepared]() {
    dispatcher::WorkloadResult result = (*prepared)->run();
    return Metrics{{"ops_under_lock", static_cast<double>(result.ops_under_lock)},
                   {"calls", static_cast<double>(result.calls)}};
  };
  micro.tear_down = [prepared]() { prepared->reset(); };
  micro.report = [n](double seconds, const Metrics& counters) {
    double ops = counters.count("ops_under_lock") ? counters.at("ops_under_lock") : 0;
    return WorkloadReport{seconds, seconds * 1e9 / n, ops, ops > 0 ? seconds * 1e9 / ops : 0};
  };
  return micro;
}

}  // namespace perflab::dispatcher_study
