// Study `pipe`: NuProcess's pipe pump and the 64 KiB pipe that made git clones 17x slower on Windows
// (NuProcess #117 / PR #118, BSERV-12599). The knobs, each bound to the member it sets, the metrics, the
// cross-parameter rules and the trace each point replays.
#include "scenarios/pipe/pipe_study.h"

#include <map>
#include <string>
#include <vector>

#include "models/pipe/real_git.h"

namespace perflab::pipe_study {

const Knobs<PipeOptions>& knobs() {
  static const Knobs<PipeOptions> knobs = [] {
    using O = PipeOptions;
    const Engine sim = Engine::kSim;
    const Engine micro = Engine::kMicro;
    Knobs<O> k;
    k.choice(
        "pump", [](O & o) -> auto& { return o.pipeline.reader.pump; }, pipe::kPumpNames,
        "the reader: nuprocess-iocp (one overlapped read of 65,536 B), jdk-blocking (blocking reads of "
        "read_size), nuprocess-epoll (Linux readiness, reads of up to 65,536 B)");
    k.size(
         "pipe_buffer", [](O & o) -> auto& { return o.pipeline.pipe_buffer; },
         "the pipe under study: NPFS quota on Windows (NuProcess 2.0.1: 64 KiB, 2.0.2: 4120 B), size asked "
         "with F_SETPIPE_SZ on Linux (rounded up to a power-of-two number of pages)")
        .at_least(1);
    k.choice(
        "platform", [](O & o) -> auto& { return o.pipeline.platform; }, pipe::kPlatformNames,
        "windows: NPFS pipes, the mechanism applies; linux: Linux pipes, real poll, no delay");
    k.choice(
         "mechanism", [](O & o) -> auto& { return o.pipeline.mechanism; }, pipe::kMechanismNames,
         "the explanation under test (Windows only): poll-tick (H2: git's emulated poll sleeps to the "
         "next timer tick), completion-delay (H1: IOCP holds short reads), none")
        .only(sim);
    k.choice(
         "writer", [](O & o) -> auto& { return o.pipeline.writer; }, pipe::kWriterNames,
         "git (pack-objects -> pipe -> upload-pack), fixed (chunk_size at write_rate), trace (replay a "
         "file)")
        .only(sim);
    k.size(
         "transfer_bytes", [](O & o) -> auto& { return o.pipeline.transfer_bytes; },
         "pack bytes moved (git, fixed)")
        .at_least(1)
        .only(sim);
    k.rate(
         "pack_rate", [](O & o) -> auto& { return o.pipeline.pack_rate; },
         "pack-objects' production rate (git)")
        .at_least(1)
        .only(sim);
    k.size(
         "relay_buffer", [](O & o) -> auto& { return o.pipeline.relay_buffer; },
         "upload-pack's xread size per packet (git <= 2.34: 8,192; >= 2.35 up to 65,515)")
        .at_least(1)
        .only(sim);
    k.duration(
         "relay_cost", [](O & o) -> auto& { return o.pipeline.relay_cost; },
         "upload-pack's CPU per relayed packet (git): the emulated poll's probes, one ReadFile, two "
         "WriteFile; 16 Win32 calls x 2 us (scenarios/pipe/NOTES.md); 0us = a free relay")
        .only(sim);
    k.size(
         "inner_pipe", [](O & o) -> auto& { return o.pipeline.inner_pipe; },
         "pack-objects -> upload-pack pipe; 0: 8,192 B on Windows (CreatePipe in compat/mingw.c), 64 KiB on "
         "Linux")
        .only(sim);
    k.duration(
         "timer_resolution", [](O & o) -> auto& { return o.pipeline.timer_resolution; },
         "H2: Windows timer tick (15.625 ms by default, 1 ms after timeBeginPeriod(1)); the phase is "
         "drawn per seed")
        .only(sim);
    k.distribution("completion_delay", &O::completion_delay,
                   "H1: how long a held IOCP read waits for more data (drawn per held read)")
        .only(sim);
    k.size(
         "read_size", [](O & o) -> auto& { return o.pipeline.reader.read_size; },
         "jdk-blocking: bytes per blocking read")
        .at_least(1)
        .only(sim);
    k.duration(
         "handler_c0", [](O & o) -> auto& { return o.pipeline.reader.handler_c0; },
         "reader CPU per completed read: the one calibrated constant (JDK / 4,120 B -> the seed's 33.96 "
         "MiB/s)")
        .only(sim);
    k.duration(
         "handler_c1", [](O & o) -> auto& { return o.pipeline.reader.handler_c1; },
         "reader CPU per byte of a completed read")
        .only(sim);
    k.size(
         "chunk_size", [](O & o) -> auto& { return o.pipeline.chunk_size; }, "fixed: bytes per write")
        .at_least(1)
        .only(sim);
    k.rate(
         "write_rate", [](O & o) -> auto& { return o.pipeline.write_rate; }, "fixed: bytes per second")
        .at_least(1)
        .only(sim);
    k.path("trace", &O::trace,
           "trace: the captured writes (time_s,bytes) to replay (scenarios/pipe/capture_trace.sh)")
        .only(sim);
    k.real("trace_speed", &O::trace_speed,
           "trace: replay the captured writes this many times faster (1 = at their recorded times)")
        .at_least(1e-9)
        .only(sim);
    k.choice("real_child", &O::real_child, kRealChildNames,
             "micro engine: the real git child the Linux pump reads (git pack-objects --stdout --all, or git "
             "upload-pack serving a clone)")
        .only(micro);
    k.integer("repo_mib", &O::repo_mib,
              "micro engine: MiB of incompressible content in the generated repository (make_repo.sh)")
        .at_least(1)
        .only(micro);
    k.real("read_cost_c0_us", &O::read_cost_c0_us,
           "micro engine: the same-run replay's reader cost per read, us (calibrated: `perflab calibrate "
           "pipe`); -1 = the cost measured in each run itself")
        .at_least(-1)
        .only(micro);
    k.real("read_cost_c1_ns", &O::read_cost_c1_ns,
           "micro engine: the same-run replay's reader cost per byte read, ns (calibrated); -1 = measured in "
           "each run")
        .at_least(-1)
        .only(micro);
    k.duration(
         "wake_latency", [](O & o) -> auto& { return o.pipeline.reader.wake_latency; },
         "linux: from a wake on a readable pipe to the reader's read (measured per run: "
         "scenarios/pipe/NOTES.md); 0 = the reader reacts at once")
        .only(sim);
    return k;
  }();
  return knobs;
}

const MetricBindings<TransferResult>& sim_metrics() {
  static const MetricBindings<TransferResult> metrics = [] {
    using R = TransferResult;
    MetricBindings<R> m;
    m.number("throughput_mib_s", &R::throughput_mib_s, "MiB/s", "pack MiB moved per second of the transfer");
    m.seconds(
        "duration_s", [](const R& r) { return r.run.duration_s; },
        "simulated time until the reader saw end of stream");
    m.count(
         "reads", [](const R& r) { return r.run.reads; }, "completed reads that returned data")
        .exactly();
    m.count(
         "poll_sleeps", [](const R& r) { return r.run.poll_sleeps; },
         "H2: upload-pack's Sleep(1) calls in the emulated poll")
        .exactly();
    m.count(
         "delayed_completions", [](const R& r) { return r.run.delayed_completions; },
         "H1: reads held by the completion delay")
        .exactly();
    m.seconds(
        "writer_blocked_s", [](const R& r) { return r.run.writer_blocked_s; },
        "time the writer of the pipe under study waited on a full pipe");
    return m;
  }();
  return metrics;
}

const MetricBindings<RealPumpReport>& micro_metrics() {
  static const MetricBindings<RealPumpReport> metrics = [] {
    using R = RealPumpReport;
    MetricBindings<R> m;
    m.number("throughput_mib_s", &R::throughput_mib_s, "MiB/s",
             "bytes the pump read / median wall time of one whole child run");
    m.seconds("seconds", &R::seconds, "median wall time of one run: spawn to end of stream");
    m.bytes("bytes", &R::bytes,
            "bytes the child wrote (and the pump read); upload-pack's progress lines vary");
    m.count("reads", &R::reads, "reads the pump made in one run");
    m.bytes("bytes_per_read", &R::bytes_per_read, "bytes / reads");
    m.bytes("pipe_size_set", &R::pipe_size_set,
            "pipe size the kernel set for the requested pipe_buffer (F_GETPIPE_SZ)")
        .exactly();
    m.count("failed", &R::failed, "1 if the child failed or did not exit 0");
    m.number("child_cpu_ms", &R::child_cpu_ms, "ms",
             "the git child's own CPU per run (/proc/PID/schedstat before reaping), median");
    m.number("descendants_cpu_ms", &R::descendants_cpu_ms, "ms",
             "CPU of the processes the child waited for (upload-pack: pack-objects), median");
    m.count("packets", &R::packets, "upload-pack: side-band packets on band 1 (pack data) in one run");
    m.number("cpu_per_packet_us", &R::cpu_per_packet_us, "us",
             "upload-pack: its CPU over the clone (start-up included) / band-1 packets");
    m.count("same_run_reads", &R::same_run_reads,
            "the pump's reads, median over the runs replayed into the model");
    m.count("same_run_sim_reads", &R::same_run_sim_reads,
            "the model's reads on each run's own write trace and pipe, median");
    m.count("same_run_median_sim_reads", &R::same_run_median_sim_reads,
            "the older model's reads on the same runs: one median wake latency per run, median");
    m.number("same_run_mib_s", &R::same_run_mib_s, "MiB/s",
             "the pump's bytes / (first byte written -> last read handled), median over the runs");
    m.number("same_run_sim_mib_s", &R::same_run_sim_mib_s, "MiB/s",
             "the model's, the same bytes over the same events on each run's replay, median");
    m.number("same_run_median_sim_mib_s", &R::same_run_median_sim_mib_s, "MiB/s",
             "the older model's (one median wake latency per run), the same bytes and events, median");
    m.count("sim_over_real", &R::sim_over_real,
            "model reads / kernel reads on the same run, median over the runs");
    m.number("wake_latency_us", &R::wake_latency_us, "us",
             "measured per run: epoll_wait returned - the waking write copied, median");
    m.number("read_c0_us", &R::read_c0_us, "us",
             "measured per run (whatever the replay used): the pump's time per read, median");
    m.number("read_c1_ns", &R::read_c1_ns, "ns",
             "measured per run (whatever the replay used): the pump's time per byte read, median");
    m.count("same_runs", &R::same_runs, "runs replayed into the model").exactly();
    m.count("same_runs_failed", &R::same_runs_failed,
            "runs whose write record could not be replayed (no recorder: all)")
        .exactly();
    return m;
  }();
  return metrics;
}

namespace {

Status validate(const Params& params) {
  return pipe::validate(knobs().options(params).pipeline);
}

// The trace a point replays, read once in the parent and handed to its runs.
Result<PointInputs> prepare(const Params& params) {
  const PipeOptions o = knobs().options(params);
  if (o.pipeline.writer != pipe::WriterKind::kTrace) return PointInputs{};
  auto loaded = pipe::load_trace(o.trace);
  if (!loaded.ok()) return loaded.status().with_context("params.trace: ");
  TraceInputs trace{std::move(loaded).value()};
  for (pipe::WriteEvent& write : trace.writes) write.at /= o.trace_speed;
  return PointInputs(std::make_shared<const TraceInputs>(std::move(trace)));
}

// The knobs the point's writer does not read (models/pipe/pipeline.cpp): a captured trace has no pack
// size or rate, the git writer no chunks or trace.
std::vector<std::string> unused_by_the_writer(const Params& params) {
  if (!params.has("writer")) return {};  // the micro engine: a real git child
  static const std::map<std::string, std::vector<std::string>> unused = {
      {"git", {"chunk_size", "write_rate", "trace", "trace_speed"}},
      {"fixed", {"pack_rate", "relay_buffer", "relay_cost", "inner_pipe", "trace", "trace_speed"}},
      {"trace",
       {"transfer_bytes", "pack_rate", "relay_buffer", "relay_cost", "inner_pipe", "chunk_size",
        "write_rate"}}};
  const auto found = unused.find(params.string("writer"));
  return found == unused.end() ? std::vector<std::string>{} : found->second;
}

Study pipe_study() {
  Study study;
  study.name = "pipe";
  study.description =
      "NuProcess pipe pump (#117/#118): why a 64 KiB pipe made git clones 17x slower on Windows, under two "
      "explanations (poll tick H2, completion delay H1)";
  study.params = knobs().specs();
  bind_sim(study, sim_metrics(), run_pipe);
  bind_micro(study, micro_metrics(), setup_linux_real);
  study.validate = validate;
  study.unused = unused_by_the_writer;
  study.prepare = prepare;
  study.prepare_reads = {"writer", "trace", "trace_speed"};
  study.calibration = calibration_fit();
  study.uses = [](Engine engine) {  // the micro engine runs real git children (linux-real.toml)
    return engine == Engine::kMicro ? std::vector<std::string>{"git " + pipe::git_version()}
                                    : std::vector<std::string>{};
  };
  return study;
}

const StudyRegistration registration(pipe_study);

}  // namespace

pipe::PipelineOptions pipeline_options(const Params& params, const PointInputs& inputs) {
  pipe::PipelineOptions o = knobs().options(params).pipeline;
  if (o.writer == pipe::WriterKind::kTrace) o.trace = inputs.get<TraceInputs>().writes;
  return o;
}

}  // namespace perflab::pipe_study
