// JobParity: the prefetch study's one driver (scenarios/prefetch/job.h) on both transports, at points
// where timing cannot change what happens (a warm JAR cache, a constant latency): the SimGrid engine and
// the real one (two processes on a loopback socket) make the same RPCs, move the same classes and put the
// same bytes on the wire for every message kind, because both send the messages protocol.h encodes. In the
// spirit of turmoil's tests/parity.rs. Each engine runs in a forked child: SimGrid allows one engine per
// process, and the real engine asks for real-time scheduling, which this test process should not keep.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <sstream>
#include <string>

#include "scenarios/prefetch/jgit_inputs.h"
#include "scenarios/prefetch/prefetch_study.h"
#include "sim/study/params.h"
#include "tests/sim/in_child.h"

namespace perflab::prefetch_study {
namespace {

using test_support::in_child;

// Every count that does not depend on timing, then the bytes of each message kind: one "name value" a line.
std::string describe(const JobResult& r) {
  std::ostringstream out;
  out << "rpcs " << r.agent.rpcs << "\nfetch3_calls " << r.agent.fetch3_calls << "\nextra_fetches "
      << r.agent.extra_fetches << "\nclasses_prefetched " << r.agent.classes_prefetched << "\nprefetch_hits "
      << r.agent.prefetch_hits << "\nbytes_prefetched " << r.agent.bytes_prefetched << "\nclasses_defined "
      << r.agent.classes_defined << "\nserver_classes_loaded " << r.server_classes_loaded << "\n";
  for (const auto& [kind, bytes] : r.bytes_sent) out << "bytes_sent." << kind << " " << bytes << "\n";
  return out.str();
}

class JobParity : public ::testing::TestWithParam<int> {};

TEST_P(JobParity, BothEnginesMakeTheSameCallsAndSendTheSameBytesPerMessageKind) {
  JobOptions options;
  options.server.prefetch_depth = GetParam();
  options.jar_cache = prefetch::JarCache::kWarm;
  options.rpc_delay = Distribution::constant(0.0005, Quantity::kDuration);
  options.trace = std::string(PERFLAB_SCENARIOS) + "/prefetch/data/jgit-clone.classload.log";
  options.classpath = {std::string(PERFLAB_SCENARIOS) + "/prefetch/data/jgit-clone.classpath"};
  auto inputs = load_inputs(options);
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();

  const Params params;  // unread: the options are given
  const PointInputs point(*inputs);
  NetworkSpec network;
  network.latency = Distribution::constant(0.0002, Quantity::kDuration);
  network.bandwidth = 100e6;

  const RunContext context{params, point, network, /*seed=*/1, /*timeline=*/nullptr};

  const std::string sim = in_child([&] {
    auto r = run_sim_job(context, options);
    return r.ok() ? describe(*r) : "error: " + r.status().message();
  });
  const std::string real = in_child([&] {
    auto r = run_real_job(context, options);
    return r.ok() ? describe(r->job) : "error: " + r.status().message();
  });
  ASSERT_EQ(sim.find("error"), std::string::npos) << sim;
  ASSERT_EQ(real.find("error"), std::string::npos) << real;
  EXPECT_EQ(sim, real);
  // Both sides of the exchange were counted: the agent's requests and the controller's replies.
  for (const char* kind : {"bytes_sent.fetch3 ", "bytes_sent.classes ", "bytes_sent.jar_present "}) {
    EXPECT_NE(sim.find(kind), std::string::npos) << kind << " in\n" << sim;
  }
}

INSTANTIATE_TEST_SUITE_P(Depths, JobParity, ::testing::Values(0, 1, 3));

}  // namespace
}  // namespace perflab::prefetch_study
