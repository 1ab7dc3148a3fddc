// The prefetch study's one driver, for both engines: the Jenkins job of Remoting PR #721 as two nodes of a
// transport (sim/engines/transport/transport.h). The agent (the hub) runs the real RemoteClassLoader over the
// workload; every class-loading RPC first waits a draw from `rpc_delay` (the PR's injected sleep), then
// goes to the controller, a spawned node serving the real PrefetchServer, which answers fetch3 with the
// requested class and its prefetched dependencies. With a cold JAR cache the agent's one downloader
// (JarCacheSupport) fetches the JARs its classes need, one after another, in the background. The messages
// are protocol.h's, so the sim charges the bytes the real engine sends. jgit_job.cpp runs it on SimGrid,
// real_job.cpp in two processes.
#pragma once

#include <string>

#include "models/common/status.h"
#include "scenarios/prefetch/jgit_inputs.h"
#include "scenarios/prefetch/prefetch_study.h"
#include "sim/engines/transport/transport.h"
#include "sim/sampling/rng.h"

namespace perflab {
class Timeline;
}

namespace perflab::prefetch_study {

// Where the controller's bytes come from: the class files and JARs themselves (real engine), or bytes of
// their recorded sizes (sim: the same sizes, so the same bytes on the wire, without reading the JARs).
class ControllerFiles {
 public:
  virtual ~ControllerFiles() = default;
  // The class file of `name`, `size` bytes long.
  virtual Result<std::string> class_file(const std::string& name, std::uint64_t size) = 0;
  virtual Result<std::string> jar_file(int jar) = 0;
};

struct JobSetup {
  const JobOptions& options;
  const JGitInputs& inputs;
  ControllerFiles& files;        // read by the controller's node
  Rng rpc_rng;                   // kRpcDelayStream
  Rng jar_rng;                   // kJarDelayStream
  double exchange_overhead = 0;  // sim only (a calibration); 0 on the real engine
  Timeline* timeline = nullptr;  // RPC spans, when given
};

// The agent's body: spawns the controller as node "controller", replays the workload, waits for its JAR
// downloads, asks for the controller's report. `result` gets the counts, the duration (from the first
// load to the last, on node.now()) and the bytes each message kind put on the wire.
Status run_agent(transport::Node& node, JobSetup setup, JobResult& result);

}  // namespace perflab::prefetch_study
