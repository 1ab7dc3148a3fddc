// The one seam between the pipe model and SimGrid: each process of the pipeline (the reader, upload-pack,
// pack-objects, or a replay writer) is an actor on its own host. An actor steps its process and turns the
// answer into simulated time: Compute and SleepUntil are sleeps, Wait is a condition variable that a pipe
// signals through the Waker (with a deadline for H1's held reads). Nothing real blocks.
#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "scenarios/pipe/pipe_study.h"
#include "sim/engines/simgrid_world.h"
#include "sim/engines/timeline.h"

namespace perflab::pipe_study {
namespace {

namespace s4u = simgrid::s4u;

// The run's random streams (sim/study/seeding.h).
constexpr std::string_view kTimerPhaseStream = "pipe.timer_phase";
constexpr std::string_view kCompletionDelayStream = "pipe.completion_delay";
constexpr std::string_view kContentStream = "pipe.content";  // the bytes the writer sends

class ActorWaker : public pipe::Waker {
 public:
  explicit ActorWaker(size_t processes) : slots_(processes) {
    for (Slot& slot : slots_) {
      slot.mutex = s4u::Mutex::create();
      slot.wakeup = s4u::ConditionVariable::create();
    }
  }
  void wake(pipe::ProcessId process) override {
    Slot& slot = slots_[static_cast<size_t>(process)];
    slot.woken = true;
    if (slot.waiting) slot.wakeup->notify_one();
  }
  // Runs `process` to completion in simulated time, on the calling actor.
  void run(pipe::ProcessId id, pipe::Process& process) {
    Slot& slot = slots_[static_cast<size_t>(id)];
    for (;;) {
      slot.woken = false;
      pipe::Action action = process.step(SimGridWorld::now());
      if (auto* compute = std::get_if<pipe::Compute>(&action)) {
        s4u::this_actor::sleep_for(compute->seconds);
      } else if (auto* sleep = std::get_if<pipe::SleepUntil>(&action)) {
        s4u::this_actor::sleep_until(sleep->time);
      } else if (auto* wait = std::get_if<pipe::Wait>(&action)) {
        std::unique_lock<s4u::Mutex> lock(*slot.mutex);
        slot.waiting = true;
        while (!slot.woken && SimGridWorld::now() < wait->deadline) {
          if (wait->deadline < pipe::kForever) {
            slot.wakeup->wait_until(lock, wait->deadline);
          } else {
            slot.wakeup->wait(lock);
          }
        }
        slot.waiting = false;
      } else {
        return;
      }
    }
  }

 private:
  struct Slot {
    s4u::MutexPtr mutex;
    s4u::ConditionVariablePtr wakeup;
    bool waiting = false;
    bool woken = false;
  };
  std::vector<Slot> slots_;
};

class TimelineSpans : public pipe::SpanSink {
 public:
  explicit TimelineSpans(Timeline& timeline) : timeline_(timeline) {}
  void span(const std::string& track, const std::string& name, double start, double end) override {
    timeline_.span(track, name, start, end);
  }

 private:
  Timeline& timeline_;
};

}  // namespace

Result<TransferResult> run_pipe(const RunContext& context) {
  pipe::PipelineOptions options = pipeline_options(context.params, context.inputs);
  Rng phase_rng = context.rng(kTimerPhaseStream);
  options.timer_phase = options.timer_resolution * phase_rng.uniform01();
  auto delay_rng = std::make_shared<Rng>(context.rng(kCompletionDelayStream));
  const Distribution delay = knobs().options(context.params).completion_delay;
  options.completion_delay = [delay_rng, delay] { return delay.sample(*delay_rng); };
  options.content_seed = context.rng(kContentStream).next_u64();

  std::unique_ptr<TimelineSpans> spans;
  if (context.timeline != nullptr) spans = std::make_unique<TimelineSpans>(*context.timeline);
  const std::vector<std::string> hosts = {"reader", "upload-pack", "pack-objects"};
  SimGridWorld world(context, hosts);
  ActorWaker waker(hosts.size());
  pipe::Pipeline pipeline(options, waker, spans.get());
  std::vector<pipe::Process*> processes = pipeline.processes();
  for (size_t i = 0; i < processes.size(); ++i) {
    pipe::Process* process = processes[i];
    s4u::Actor::create(process->name(), world.host(hosts[i]),
                       [&waker, i, process] { waker.run(static_cast<pipe::ProcessId>(i), *process); });
  }
  world.run();
  pipe::PipelineResult r = pipeline.result();
  if (r.duration_s <= 0) {
    return Status::Error("the reader never saw end of stream: the processes stopped making progress");
  }
  if (!r.conserved) {
    return Status::Error("bytes not conserved: the reader's checksum differs from the writer's");
  }
  double throughput = static_cast<double>(r.payload_bytes) / r.duration_s / kMiB;
  return TransferResult{r, throughput};
}

}  // namespace perflab::pipe_study
