// The `pipe` study's pieces, registered together in pipe_study.cpp: reading a grid point's parameters into
// the model's options, the SimGrid driver (pipe_driver.cpp) and the real Linux pump (linux_real.cpp). Its
// presentation (the seed-shaped reports, plots) is scenarios/pipe/page.py.
#pragma once

#include "models/common/enum_names.h"
#include "models/pipe/pipeline.h"
#include "sim/runner/run_table.h"
#include "sim/study/knobs.h"
#include "sim/study/metrics.h"
#include "sim/study/study.h"

namespace perflab::pipe_study {

// The real git child the micro engine's Linux pump reads.
enum class RealChild { kPackObjects, kUploadPack };
inline const EnumNames<RealChild> kRealChildNames{
    "real child", {{RealChild::kPackObjects, "pack-objects"}, {RealChild::kUploadPack, "upload-pack"}}};

// Everything a pipe scenario sets: the model's options (their defaults are the model's own), and what the
// harness turns into them. Random parts (the timer phase, the completion-delay draws) are left for the
// driver, which owns the run's generator.
struct PipeOptions {
  pipe::PipelineOptions pipeline;
  Distribution completion_delay = Distribution::constant(1e-3, Quantity::kDuration);  // H1: D per held read
  std::string trace = "data/git-upload-pack.64KiB.writes.csv";  // writer = trace: the captured writes
  double trace_speed = 1.0;                        // writer = trace: replay this many times faster
  RealChild real_child = RealChild::kPackObjects;  // micro
  int64_t repo_mib = 32;                           // micro: MiB of the generated repository
  double read_cost_c0_us = -1;  // micro: the replay's reader cost per read (calibrated); -1: the run's own
  double read_cost_c1_ns = -1;  // micro: and per byte read
};

// The study's knobs, each bound to the member of PipeOptions it sets.
const Knobs<PipeOptions>& knobs();

// What prepare() loads for a grid point that replays a trace: its writes, already sped up by trace_speed.
struct TraceInputs {
  std::vector<pipe::WriteEvent> writes;
};

// The model's options for one grid point, with the prepared trace (if the point replays one).
pipe::PipelineOptions pipeline_options(const Params& params, const PointInputs& inputs);
// What one simulated transfer measures: the model's result and the pack's throughput.
struct TransferResult {
  pipe::PipelineResult run;
  double throughput_mib_s = 0;  // payload MiB per second of the transfer
};

// What the micro engine's real Linux pump measures over a point's repetitions (medians where it says so).
struct RealPumpReport {
  double throughput_mib_s = 0;
  double seconds = 0;
  double bytes = 0;
  double reads = 0;
  double bytes_per_read = 0;
  double pipe_size_set = 0;  // bytes
  double failed = 0;         // 1 or 0
  double child_cpu_ms = -1;  // -1: not measured
  double descendants_cpu_ms = -1;
  double packets = 0;
  double cpu_per_packet_us = 0;
  double same_run_reads = 0;
  double same_run_sim_reads = 0;
  double same_run_median_sim_reads = 0;
  double same_run_mib_s = 0;
  double same_run_sim_mib_s = 0;
  double same_run_median_sim_mib_s = 0;
  double sim_over_real = 0;
  double wake_latency_us = -1;
  double read_c0_us = -1;
  double read_c1_ns = -1;
  double same_runs = 0;
  double same_runs_failed = 0;
};

// The study's metrics of each engine, each bound to the member that carries it.
const MetricBindings<TransferResult>& sim_metrics();
const MetricBindings<RealPumpReport>& micro_metrics();

Result<TransferResult> run_pipe(const RunContext& context);
Result<MicroWorkloadOf<RealPumpReport>> setup_linux_real(const Params& params, const PointInputs& inputs);
CalibrationHook calibration_fit();  // `perflab calibrate pipe` (calibration_fit.cpp)

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace perflab::pipe_study
