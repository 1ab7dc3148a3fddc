// The micro-engine workloads; see workloads.h.
#include "models/dispatcher/workloads.h"

#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace perflab::dispatcher {
namespace {

constexpr int kRoundRobinHosts = 10;

std::string host_of_call(Workload workload, int index) {
  switch (workload) {
    case Workload::kEnqueueBurst:
    case Workload::kOneHostBacklog:
      return "a";
    case Workload::kDistinctHosts:
      return "h" + std::to_string(index);
    case Workload::kRoundRobin:
      return "h" + std::to_string(index % kRoundRobinHosts);
  }
  return "a";
}

}  // namespace

WorkloadRun::WorkloadRun(Key /*key*/, Workload workload, Strategy strategy, int n,
                         std::vector<std::string> hosts)
    : workload_(workload), n_(n), hosts_(std::move(hosts)), dispatcher_(executor_, strategy) {}

Status WorkloadRun::set_limits(int max_requests, int max_requests_per_host) {
  if (Status status = dispatcher_.set_max_requests(max_requests); !status.ok()) return status;
  return dispatcher_.set_max_requests_per_host(max_requests_per_host);
}

Result<std::unique_ptr<WorkloadRun>> WorkloadRun::Create(Workload workload, Strategy strategy, int n,
                                                         int max_requests, int max_requests_per_host) {
  if (n < 1) {
    return Status::Error("workload size n must be at least 1, got " + std::to_string(n));
  }
  if (workload == Workload::kEnqueueBurst) {
    max_requests = n;
    max_requests_per_host = n;
  }
  auto run = std::make_unique<WorkloadRun>(Key(), workload, strategy, n);
  if (workload != Workload::kEnqueueBurst) {
    run->finished_calls_.reserve(static_cast<size_t>(n));
  }
  if (Status status = run->set_limits(max_requests, max_requests_per_host); !status.ok()) return status;
  return run;
}

Result<std::unique_ptr<WorkloadRun>> WorkloadRun::Create(std::vector<std::string> hosts, Strategy strategy,
                                                         int max_requests, int max_requests_per_host) {
  if (hosts.empty()) return Status::Error("the host sequence is empty, expected at least one call");
  const int n = static_cast<int>(hosts.size());
  // Finished like one_host_backlog: every call, in the order the executor received them.
  auto run = std::make_unique<WorkloadRun>(Key(), Workload::kOneHostBacklog, strategy, n, std::move(hosts));
  run->finished_calls_.reserve(static_cast<size_t>(n));
  if (Status status = run->set_limits(max_requests, max_requests_per_host); !status.ok()) return status;
  return run;
}

WorkloadResult WorkloadRun::run() {
  for (int i = 0; i < n_; ++i) {
    dispatcher_.enqueue(
        Call::Create(hosts_.empty() ? host_of_call(workload_, i) : hosts_[static_cast<size_t>(i)]));
  }
  WorkloadResult result;
  if (workload_ == Workload::kEnqueueBurst) {
    result.executed = executor_.call_count();
  } else {
    result.executed = finish_all();
  }
  result.ops_under_lock = dispatcher_.ops_under_lock();
  result.locked_sections = dispatcher_.locked_sections();
  result.calls = static_cast<uint64_t>(n_);
  return result;
}

uint64_t WorkloadRun::finish_all() {
  uint64_t finished = 0;
  std::vector<CallPtr> started;
  for (executor_.take_calls(started); !started.empty(); executor_.take_calls(started)) {
    for (const CallPtr& call : started) {
      dispatcher_.finished(*call);
    }
    finished += started.size();
    finished_calls_.insert(finished_calls_.end(), std::make_move_iterator(started.begin()),
                           std::make_move_iterator(started.end()));
  }
  return finished;
}

Result<WorkloadResult> run_workload(Workload workload, Strategy strategy, int n, int max_requests,
                                    int max_requests_per_host) {
  Result<std::unique_ptr<WorkloadRun>> run =
      WorkloadRun::Create(workload, strategy, n, max_requests, max_requests_per_host);
  if (!run.ok()) {
    return run.status();
  }
  return run.value()->run();
}

}  // namespace perflab::dispatcher
