// The dispatcher workloads the micro engine times on real CPU: plain functions, no benchmark library.
// Each builds a Dispatcher with the given strategy and a RecordingExecutor (which never runs calls),
// enqueues n calls and, except for enqueue_burst, finishes the running calls in the order they started
// (each finish promotes the next ready call) until every call has run.
//   enqueue_burst     the PR's benchmark: one host, maxRequests = maxRequestsPerHost = n (the limits
//                     passed in are ignored), enqueue n calls, finish none.
//   one_host_backlog  n calls to one host under (max_requests, max_requests_per_host), then finish all.
//   distinct_hosts    n calls to n distinct hosts, then finish all.
//   round_robin       n calls over 10 hosts (call i goes to host i % 10), then finish all.
// A given host sequence (a request log's, request_log.h) is a workload too: its calls enqueued as a burst
// under (max_requests, max_requests_per_host), call i to hosts[i], then finish all.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/enum_names.h"
#include "models/common/status.h"
#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/recording_executor.h"
#include "models/dispatcher/strategy.h"

namespace perflab::dispatcher {

enum class Workload { kEnqueueBurst, kOneHostBacklog, kDistinctHosts, kRoundRobin };

inline const EnumNames<Workload> kWorkloadNames{"dispatcher workload",
                                                {{Workload::kEnqueueBurst, "enqueue_burst"},
                                                 {Workload::kOneHostBacklog, "one_host_backlog"},
                                                 {Workload::kDistinctHosts, "distinct_hosts"},
                                                 {Workload::kRoundRobin, "round_robin"}}};

struct WorkloadResult {
  uint64_t ops_under_lock = 0;   // elements touched under the dispatcher lock, all sections
  uint64_t locked_sections = 0;  // times the lock was taken
  uint64_t calls = 0;            // calls enqueued
  uint64_t executed = 0;         // calls handed to the executor
};

// One run of a workload in three steps, so that a benchmark can time the middle one the way the PR's
// benchmark was timed: Create() builds the Dispatcher, its limits and executor (the PR's test fixture),
// run() creates and enqueues the n calls and, except for enqueue_burst, finishes them (the PR's timed
// loop), and destroying the WorkloadRun frees what is left, the finished calls included (in Java, the
// garbage collector's business after the clock stopped).
class WorkloadRun {
  struct Key {  // only Create() makes one
    explicit Key() = default;
  };

 public:
  // Errors: n < 1, or a limit < 1 (for workloads that use the limits).
  static Result<std::unique_ptr<WorkloadRun>> Create(Workload workload, Strategy strategy, int n,
                                                     int max_requests, int max_requests_per_host);
  // The host sequence's workload. Errors: no hosts, or a limit < 1.
  static Result<std::unique_ptr<WorkloadRun>> Create(std::vector<std::string> hosts, Strategy strategy,
                                                     int max_requests, int max_requests_per_host);
  WorkloadRun(Key key, Workload workload, Strategy strategy, int n, std::vector<std::string> hosts = {});
  WorkloadRun(const WorkloadRun&) = delete;
  WorkloadRun& operator=(const WorkloadRun&) = delete;

  // Call once.
  WorkloadResult run();

 private:
  // Finishes the running calls in the order the executor received them, including the ones each finish
  // promotes, until none is left running. Returns how many calls it finished.
  uint64_t finish_all();

  Status set_limits(int max_requests, int max_requests_per_host);

  const Workload workload_;
  const int n_;
  const std::vector<std::string> hosts_;  // call i's host when given
  RecordingExecutor executor_;
  Dispatcher dispatcher_;
  std::vector<CallPtr> finished_calls_;  // kept for the destructor to free, off the clock
};

// Create() and run() in one go, for callers that time nothing or everything.
Result<WorkloadResult> run_workload(Workload workload, Strategy strategy, int n, int max_requests,
                                    int max_requests_per_host);

}  // namespace perflab::dispatcher
