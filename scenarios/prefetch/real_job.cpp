// Real engine entry of the prefetch study: the job's one driver (job.h) in real time, this process the
// agent and a forked process the controller, on a shaped loopback link
// (sim/engines/transport/real_transport.h). What only the real engine does is here: the controller reads the
// real class files and JARs it sends.
#include <fstream>
#include <sstream>

#include "models/prefetch/classpath.h"
#include "scenarios/prefetch/job.h"
#include "sim/engines/transport/real_transport.h"

namespace perflab::prefetch_study {
namespace {

class ClasspathFiles : public ControllerFiles {
 public:
  ClasspathFiles(prefetch::Classpath classpath, std::vector<std::string> jar_paths)
      : classpath_(std::move(classpath)), jar_paths_(std::move(jar_paths)) {}

  Result<std::string> class_file(const std::string& name, std::uint64_t) override {
    auto location = classpath_.find(name);
    if (!location) return Status::Error("class " + name + " is not on the classpath");
    return classpath_.read_class(*location);
  }

  Result<std::string> jar_file(int jar) override {
    const std::string& path = jar_paths_.at(static_cast<size_t>(jar));
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) return Status::Error(path + ": cannot read the JAR");
    return bytes.str();
  }

 private:
  prefetch::Classpath classpath_;
  std::vector<std::string> jar_paths_;
};

}  // namespace

Result<RealJobResult> run_real_jgit_job(const RunContext& context) {
  return run_real_job(context, knobs().options(context.params));
}

Result<RealJobResult> run_real_job(const RunContext& context, const JobOptions& options) {
  const auto& inputs = context.inputs.get<JGitInputs>();
  auto jar_paths = expand_classpath(options.classpath);
  if (!jar_paths.ok()) return jar_paths.status();
  auto classpath = prefetch::Classpath::Open(*jar_paths);
  if (!classpath.ok()) return classpath.status();
  ClasspathFiles files(std::move(classpath).value(), *jar_paths);

  JobResult job;
  auto run = transport::run_on_real(context, "agent", [&](transport::Node& agent) {
    return run_agent(agent,
                     {options, inputs, files, context.rng(kRpcDelayStream), context.rng(kJarDelayStream),
                      /*exchange_overhead=*/0, context.timeline},
                     job);
  });
  if (!run.ok()) return run.status();
  const real::OversleepStats& o = run->oversleep;
  return RealJobResult{job, o.sleeps, o.mean_s(), static_cast<double>(o.max_ns) * 1e-9, run->realtime};
}

}  // namespace perflab::prefetch_study
