// Sim engine entry of the prefetch study: the job's one driver (job.h) on SimGrid, the agent and the
// controller each on a simulated host (sim/engines/transport/sim_transport.h). The controller does not read
// the JARs: it sends bytes of the sizes the classpath index recorded, so each message is as long as the real
// engine's.
#include "scenarios/prefetch/job.h"
#include "sim/engines/transport/sim_transport.h"

namespace perflab::prefetch_study {
namespace {

class RecordedSizes : public ControllerFiles {
 public:
  explicit RecordedSizes(const JGitInputs& inputs) : inputs_(inputs) {}
  Result<std::string> class_file(const std::string&, std::uint64_t size) override {
    return std::string(size, '\0');
  }
  Result<std::string> jar_file(int jar) override {
    return std::string(inputs_.jar_bytes.at(static_cast<size_t>(jar)), '\0');
  }

 private:
  const JGitInputs& inputs_;
};

}  // namespace

Result<JobResult> run_jgit_job(const RunContext& context) {
  return run_sim_job(context, knobs().options(context.params));
}

Result<JobResult> run_sim_job(const RunContext& context, const JobOptions& options) {
  const auto& inputs = context.inputs.get<JGitInputs>();
  RecordedSizes files(inputs);
  JobResult result;
  Status ran = transport::run_on_simgrid(context, {"agent", "controller"}, [&](transport::Node& agent) {
    return run_agent(agent,
                     {options, inputs, files, context.rng(kRpcDelayStream), context.rng(kJarDelayStream),
                      options.exchange_overhead, context.timeline},
                     result);
  });
  if (!ran.ok()) return ran;
  return result;
}

}  // namespace perflab::prefetch_study
