// DispatcherParity: the incident's one driver (scenarios/dispatcher/incident_driver.h) on both transports,
// at a point where timing cannot change what happens: a request log whose calls come 100 ms apart and last a
// few milliseconds (constant latency and server times), so every call has finished before the next arrives.
// The SimGrid engine and the real one (threads, and a forked process per host on shaped loopback links)
// then run the same calls, take the lock as often, touch the same elements under it and put the same bytes
// on the wire for every message kind, because both run the same driver and send the messages it encodes.
// In the spirit of turmoil's tests/parity.rs. Each engine runs in a forked child (in_child.h).
//
// The sanitizer builds have no SimGrid: there only the real half runs (under TSan: scripts/test), against
// the counts the protocol fixes, with a burst of overlapping calls beside it so the threads' hand-offs are
// exercised.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>

#include "scenarios/dispatcher/incident_driver.h"
#include "sim/study/params.h"
#include "tests/sim/in_child.h"

namespace perflab::dispatcher_study {
namespace {

using test_support::in_child;

constexpr int kCalls = 20;
constexpr int kHosts = 3;

// The calls of a log: `gap_s` apart, round-robin over the hosts, each a server time of 2 ms.
std::shared_ptr<const dispatcher::RequestLog> log_of(double gap_s) {
  auto log = std::make_shared<dispatcher::RequestLog>();
  for (int h = 0; h < kHosts; ++h) log->hosts.push_back(host_name(h));
  for (int i = 0; i < kCalls; ++i) log->requests.push_back({0.01 + i * gap_s, i % kHosts, 0.002});
  log->has_durations = true;
  return log;
}

DispatcherOptions options() {
  DispatcherOptions x;
  x.strategy = Implementation::kScan;  // the strategy whose elements depend most on what runs at once
  x.request_log = "parity";            // the log in the point's inputs (log_of)
  x.calls = kCalls;
  x.hosts = kHosts;
  x.threads = 8;
  x.max_requests = 4;
  x.max_requests_per_host = 2;
  x.request_size = 700;
  x.response_size = 5000;
  return x;
}

// Every count that does not depend on timing, then the bytes of each message kind: one "name value" a line.
std::string describe(const IncidentResult& incident, const IncidentRun& run) {
  std::ostringstream out;
  out << "calls_run " << run.calls_run << "\ncalls_finished " << run.calls_finished << "\nlock_acquisitions "
      << incident.lock_acquisitions << "\nops_under_lock " << incident.ops_under_lock << "\n";
  for (const auto& [kind, bytes] : run.bytes_sent) out << "bytes_sent." << kind << " " << bytes << "\n";
  return out.str();
}

// What the protocol fixes: every call run and finished once, two locked sections per enqueue() and two per
// finished(), a request and a response per call (header and payload) and one "done" per host.
std::string expected_counts(const DispatcherOptions& x) {
  std::ostringstream out;
  const std::uint64_t header = transport::Message::kHeaderBytes;
  out << "calls_run " << kCalls << "\ncalls_finished " << kCalls << "\nlock_acquisitions " << 4 * kCalls
      << "\n";
  out << "bytes_sent.done " << kHosts * header << "\n";
  out << "bytes_sent.request " << kCalls * (header + static_cast<std::uint64_t>(x.request_size)) << "\n";
  out << "bytes_sent.response " << kCalls * (header + static_cast<std::uint64_t>(x.response_size)) << "\n";
  return out.str();
}

// `text` without its ops_under_lock line (which the protocol does not fix).
std::string without_ops(const std::string& text) {
  std::istringstream in(text);
  std::string line, kept;
  while (std::getline(in, line)) {
    if (line.rfind("ops_under_lock ", 0) != 0) kept += line + "\n";
  }
  return kept;
}

struct Point {
  Params params;  // unread: the options are given
  PointInputs inputs;
  NetworkSpec network;
  explicit Point(double gap_s) : inputs(log_of(gap_s)) {
    network.latency = Distribution::constant(0.0005, Quantity::kDuration);
    network.bandwidth = 100e6;
  }
  RunContext context() const { return RunContext{params, inputs, network, /*seed=*/1, /*timeline=*/nullptr}; }
};

std::string run_real(const Point& point, const DispatcherOptions& x) {
  return in_child([&] {
    const RunContext context = point.context();
    auto r = run_real_incident(context, x, IncidentSetup{dispatcher::Strategy::kScan, 0});
    return r.ok() ? describe(r->real.incident, r->run) : "error: " + r.status().message();
  });
}

TEST(DispatcherParity, BothEnginesRunTheSameCallsTouchTheSameElementsAndSendTheSameBytesPerMessageKind) {
  const Point point(/*gap_s=*/0.1);
  const DispatcherOptions x = options();
  const std::string real = run_real(point, x);
  ASSERT_EQ(real.find("error"), std::string::npos) << real;
  EXPECT_EQ(without_ops(real), expected_counts(x));
  EXPECT_NE(real.find("ops_under_lock "), std::string::npos);
#ifdef PERFLAB_PARITY_SIM
  const std::string sim = in_child([&] {
    const RunContext context = point.context();
    auto r = run_sim_incident(context, x, IncidentSetup{dispatcher::Strategy::kScan, 0});
    return r.ok() ? describe(r->incident, r->run) : "error: " + r.status().message();
  });
  ASSERT_EQ(sim.find("error"), std::string::npos) << sim;
  EXPECT_EQ(sim, real);
#endif
}

// Every call at once, more than the limits let run: callers block on the lock, the executor's queue and the
// replies' routing carry many calls at a time. Every call still runs once and the bytes are the protocol's.
TEST(DispatcherRealThreads, ABurstOfCallsRunsEachOnceAndSendsTheProtocolsBytes) {
  const Point point(/*gap_s=*/0);
  const DispatcherOptions x = options();
  const std::string real = run_real(point, x);
  ASSERT_EQ(real.find("error"), std::string::npos) << real;
  EXPECT_EQ(without_ops(real), expected_counts(x));
}

}  // namespace
}  // namespace perflab::dispatcher_study
