// Study `pipe`: NuProcess's pipe pump and the 64 KiB pipe that made git clones 17x slower on Windows
// (NuProcess #117 / PR #118, BSERV-12599). Parameters, metrics, cross-parameter rules, the trace loading.
#include "scenarios/pipe/pipe_study.h"

#include <map>

namespace perflab::pipe_study {
namespace {

// Traces loaded in the parent by prepare(), inherited by the forked runs.
std::map<std::string, std::vector<pipe::WriteEvent>>& trace_cache() {
  static std::map<std::string, std::vector<pipe::WriteEvent>> cache;
  return cache;
}

Result<std::vector<pipe::WriteEvent>> trace_for(const std::string& path) {
  auto& cache = trace_cache();
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  auto events = pipe::load_trace(path);
  if (!events.ok()) return events.status();
  cache[path] = *events;
  return events;
}

Status validate(const Params& params) {
  auto options = options_from(params);  // reads and checks the trace file, if one is used
  if (!options.ok()) return options.status();
  return pipe::validate(*options);
}

Status prepare(const Params& params) {
  if (params.string("writer") != "trace") return Status::OK();
  return trace_for(params.string("trace")).status();
}

Study pipe_study() {
  Study study;
  study.name = "pipe";
  study.description =
      "NuProcess pipe pump (#117/#118): why a 64 KiB pipe made git clones 17x slower on Windows, under two "
      "explanations (poll tick H2, completion delay H1)";
  const Engine sim = Engine::kSim;
  study.params = {
      choice_param(
          "pump", "nuprocess-iocp", {"nuprocess-iocp", "jdk-blocking", "nuprocess-epoll"},
          "the reader: nuprocess-iocp (one overlapped read of 65,536 B), jdk-blocking (blocking reads of "
          "read_size), nuprocess-epoll (Linux readiness, reads of up to 65,536 B)"),
      size_param(
          "pipe_buffer", "64KiB",
          "the pipe under study: NPFS quota on Windows (NuProcess 2.0.1: 64 KiB, 2.0.2: 4120 B), size asked "
          "with F_SETPIPE_SZ on Linux (rounded up to a power-of-two number of pages)")
          .at_least(1),
      choice_param("platform", "windows", {"windows", "linux"},
                   "windows: NPFS pipes, the mechanism applies; linux: Linux pipes, real poll, no delay"),
      choice_param(
          "mechanism", "poll-tick", {"poll-tick", "completion-delay", "none"},
          "the explanation under test (Windows only): poll-tick (H2: git's emulated poll sleeps to the "
          "next timer tick), completion-delay (H1: IOCP holds short reads), none")
          .only(sim),
      choice_param(
          "writer", "git", {"git", "fixed", "trace"},
          "git (pack-objects -> pipe -> upload-pack), fixed (chunk_size at write_rate), trace (replay a "
          "file)")
          .only(sim),
      size_param("transfer_bytes", "48MiB", "pack bytes moved (git, fixed)").at_least(1).only(sim),
      rate_param("pack_rate", "48MiBps", "pack-objects' production rate (git)").at_least(1).only(sim),
      size_param("relay_buffer", "8KiB",
                 "upload-pack's xread size per packet (git <= 2.34: 8,192; >= 2.35 up to 65,515)")
          .at_least(1)
          .only(sim),
      duration_param("relay_cost", "32us",
                     "upload-pack's CPU per relayed packet (git): the emulated poll's probes, one ReadFile, "
                     "two WriteFile; "
                     "16 Win32 calls x 2 us (scenarios/pipe/NOTES.md); 0us = a free relay")
          .only(sim),
      size_param(
          "inner_pipe", "0B",
          "pack-objects -> upload-pack pipe; 0: 8,192 B on Windows (CreatePipe in compat/mingw.c), 64 KiB on "
          "Linux")
          .only(sim),
      duration_param(
          "timer_resolution", "15.625ms",
          "H2: Windows timer tick (15.625 ms by default, 1 ms after timeBeginPeriod(1)); the phase is "
          "drawn per seed")
          .only(sim),
      distribution_param("completion_delay", "constant(1ms)",
                         "H1: how long a held IOCP read waits for more data (drawn per held read)")
          .only(sim),
      size_param("read_size", "8KiB", "jdk-blocking: bytes per blocking read").at_least(1).only(sim),
      duration_param(
          "handler_c0", "220us",
          "reader CPU per completed read: the one calibrated constant (JDK / 4,120 B -> the seed's 33.96 "
          "MiB/s)")
          .only(sim),
      duration_param("handler_c1", "1ns", "reader CPU per byte of a completed read").only(sim),
      size_param("chunk_size", "8KiB", "fixed: bytes per write").at_least(1).only(sim),
      rate_param("write_rate", "48MiBps", "fixed: bytes per second").at_least(1).only(sim),
      path_param("trace", "data/git-upload-pack.64KiB.writes.csv",
                 "trace: the captured writes (time_s,bytes) to replay (scenarios/pipe/capture_trace.sh)")
          .only(sim),
      real_param("trace_speed", "1.0",
                 "trace: replay the captured writes this many times faster (1 = at their recorded times)")
          .only(sim),
      choice_param(
          "real_child", "pack-objects", {"pack-objects", "upload-pack"},
          "micro engine: the real git child the Linux pump reads (git pack-objects --stdout --all, or git "
          "upload-pack serving a clone)")
          .only(Engine::kMicro),
      int_param("repo_mib", "32",
                "micro engine: MiB of incompressible content in the generated repository (make_repo.sh)")
          .at_least(1)
          .only(Engine::kMicro),
      duration_param("wake_latency", "0us",
                     "linux: from a wake on a readable pipe to the reader's read (measured per run: "
                     "scenarios/pipe/NOTES.md); 0us = the reader reacts at once")
          .only(sim),
  };
  study.metrics = {
      {"throughput_mib_s", "pack MiB moved per second of the transfer"},
      {"duration_s", "simulated time until the reader saw end of stream"},
      {"reads", "completed reads that returned data", true},
      {"poll_sleeps", "H2: upload-pack's Sleep(1) calls in the emulated poll", true},
      {"delayed_completions", "H1: reads held by the completion delay", true},
      {"writer_blocked_s", "time the writer of the pipe under study waited on a full pipe"},
  };
  study.micro_metrics = {
      {"throughput_mib_s", "bytes the pump read / median wall time of one whole child run"},
      {"seconds", "median wall time of one run: spawn to end of stream"},
      {"bytes", "bytes the child wrote (and the pump read); upload-pack's progress lines vary"},
      {"reads", "reads the pump made in one run"},
      {"bytes_per_read", "bytes / reads"},
      {"pipe_size_set", "pipe size the kernel set for the requested pipe_buffer (F_GETPIPE_SZ)", true},
      {"failed", "1 if the child failed or did not exit 0"},
      {"child_cpu_ms", "the git child's own CPU per run (/proc/PID/schedstat before reaping), median"},
      {"descendants_cpu_ms", "CPU of the processes the child waited for (upload-pack: pack-objects), median"},
      {"packets", "upload-pack: side-band packets on band 1 (pack data) in one run"},
      {"cpu_per_packet_us", "upload-pack: its CPU over the clone (start-up included) / band-1 packets"},
      {"same_run_reads", "the pump's reads, median over the runs replayed into the model"},
      {"same_run_sim_reads", "the model's reads on each run's own write trace and pipe, median"},
      {"sim_over_real", "model reads / kernel reads on the same run, median over the runs"},
      {"wake_latency_us", "measured per run: epoll_wait returned - the waking write copied, median"},
      {"read_c0_us", "measured per run: the pump's time per read, median"},
      {"read_c1_ns", "measured per run: the pump's time per byte read, median"},
      {"same_runs", "runs replayed into the model", true},
      {"same_runs_failed", "runs whose write record could not be replayed (no recorder: all)", true},
  };
  study.setup_micro = setup_linux_real;
  study.validate = validate;
  study.prepare = prepare;
  study.run_sim = run_pipe;
  study.headline_report = [](const RunTable& table) {
    if (table.scenario->engine == Engine::kMicro) return linux_real_report(table);
    if (table.scenario->name == "pipe-seed-rate") return seed_rate_report(table);
    if (table.scenario->name == "pipe-linux-sim") return linux_sim_report(table);
    return headline_report(table);
  };
  return study;
}

const StudyRegistration registration(pipe_study);

}  // namespace

Result<pipe::PipelineOptions> options_from(const Params& params) {
  pipe::PipelineOptions o;
  o.platform = *pipe::parse_platform(params.string("platform"));
  o.mechanism = *pipe::parse_mechanism(params.string("mechanism"));
  o.reader.pump = *pipe::parse_pump(params.string("pump"));
  o.reader.read_size = static_cast<size_t>(params.real("read_size"));
  o.reader.handler_c0 = params.real("handler_c0");
  o.reader.handler_c1 = params.real("handler_c1");
  o.reader.wake_latency = params.real("wake_latency");
  o.pipe_buffer = static_cast<size_t>(params.real("pipe_buffer"));
  o.writer = *pipe::parse_writer(params.string("writer"));
  o.transfer_bytes = static_cast<uint64_t>(params.real("transfer_bytes"));
  o.pack_rate = params.real("pack_rate");
  o.relay_buffer = static_cast<size_t>(params.real("relay_buffer"));
  o.relay_cost = params.real("relay_cost");
  o.inner_pipe = static_cast<size_t>(params.real("inner_pipe"));
  o.timer_resolution = params.real("timer_resolution");
  o.chunk_size = static_cast<size_t>(params.real("chunk_size"));
  o.write_rate = params.real("write_rate");
  o.completion_delay = [] { return 0.0; };  // the driver draws from the scenario's distribution
  if (o.writer == pipe::WriterKind::kTrace) {
    auto events = trace_for(params.string("trace"));
    if (!events.ok()) return events.status();
    o.trace = *events;
    const double speed = params.real("trace_speed");
    if (!(speed > 0)) return Status::Error("trace_speed must be > 0, got " + std::to_string(speed));
    for (pipe::WriteEvent& event : o.trace) event.at /= speed;
  }
  return o;
}

}  // namespace perflab::pipe_study
