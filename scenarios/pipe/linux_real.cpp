// Micro-engine driver of the pipe study: the real Linux pump (models/pipe/real_pump.h) reading a real git
// child (pack-objects or upload-pack over a repository made by make_repo.sh) through a pipe of `pipe_buffer`
// bytes; only the child's run and the pump are timed. The control experiment: the seed says Linux shows no
// penalty at 64 KiB. Each run also records the child's writes (perflab_write_recorder) and is replayed into
// the simulated Linux pump with the pipe the kernel set (models/pipe/same_run.h): the model's reads beside
// the kernel's on the very run measured.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include "models/pipe/real_git.h"
#include "models/pipe/same_run.h"
#include "scenarios/pipe/pipe_study.h"
#include "sim/scenario/scenario.h"

namespace perflab::pipe_study {
namespace {

// The generated repository is kept under the temp folder between points and runs (same size, same bytes).
Result<std::pair<std::filesystem::path, std::string>> repository(int size_mib) {
  auto dir = std::filesystem::temp_directory_path() /
             ("perflab-pipe-repo-" + std::to_string(size_mib) + "mib-" + std::to_string(getuid()));
  auto marker = dir / "perflab-head";
  if (std::ifstream in(marker); in) {
    std::string head;
    in >> head;
    if (head.size() == 40) return std::make_pair(dir / "repo", head);
  }
  auto head = pipe::make_repo(scenarios_dir() / "pipe" / "make_repo.sh", dir / "repo", size_mib);
  if (!head.ok()) return head.status();
  std::ofstream(marker) << *head << "\n";
  return std::make_pair(dir / "repo", *head);
}

// What every repetition of a point measured (the counters keep only one repetition's).
struct CpuSamples {
  std::vector<double> own;          // the child itself, seconds
  std::vector<double> descendants;  // what it waited for (upload-pack: pack-objects), seconds
};
struct SameRunSamples {
  std::vector<double> real_reads, sim_reads, median_sim_reads, ratio, wake_latency, read_c0, read_c1;
  std::vector<double> real_mib_s, sim_mib_s,
      median_sim_mib_s;  // the same bytes, first byte written -> last read handled
  int failed = 0;        // runs whose record could not be replayed
};

// Replays a recorded run into the model, with its wake-ups as a series and (for comparison) as their
// median; false if the record does not make a trace.
bool add_same_run(const pipe::RealPumpResult& run, pipe::ReaderCost cost, SameRunSamples& samples) {
  auto same = pipe::same_run_from(run, cost);
  if (!same.ok()) return false;
  auto sim = pipe::replay_same_run(*same, pipe::WakeModel::kSeries);
  auto by_median = pipe::replay_same_run(*same, pipe::WakeModel::kMedian);
  if (!sim.ok() || sim->reads == 0 || !by_median.ok() || same->real_seconds <= 0 ||
      sim->last_read_handled_s <= 0 || by_median->last_read_handled_s <= 0)
    return false;
  samples.real_reads.push_back(static_cast<double>(run.reads));
  samples.sim_reads.push_back(static_cast<double>(sim->reads));
  samples.median_sim_reads.push_back(static_cast<double>(by_median->reads));
  samples.ratio.push_back(static_cast<double>(sim->reads) / static_cast<double>(run.reads));
  samples.real_mib_s.push_back(static_cast<double>(run.bytes) / same->real_seconds / kMiB);
  samples.sim_mib_s.push_back(static_cast<double>(sim->bytes) / sim->last_read_handled_s / kMiB);
  samples.median_sim_mib_s.push_back(static_cast<double>(by_median->bytes) / by_median->last_read_handled_s /
                                     kMiB);
  samples.wake_latency.push_back(same->wake_latency);
  samples.read_c0.push_back(same->measured_read_c0);
  samples.read_c1.push_back(same->measured_read_c1);
  return true;
}

double median_of(std::vector<double> values) {
  if (values.empty()) return -1;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

Result<MicroWorkloadOf<RealPumpReport>> setup_linux_real(const Params& params, const PointInputs& /*none*/) {
  const PipeOptions knobs_set = knobs().options(params);
  const int size_mib = static_cast<int>(knobs_set.repo_mib);
  const size_t pipe_size = knobs_set.pipeline.pipe_buffer;
  const RealChild child = knobs_set.real_child;
  const pipe::ReaderCost cost{knobs_set.read_cost_c0_us >= 0 ? knobs_set.read_cost_c0_us * 1e-6 : -1,
                              knobs_set.read_cost_c1_ns >= 0 ? knobs_set.read_cost_c1_ns * 1e-9 : -1};
  auto options = std::make_shared<pipe::RealPumpOptions>();
  auto cpu = std::make_shared<CpuSamples>();
  auto same_runs = std::make_shared<SameRunSamples>();
  MicroWorkloadOf<RealPumpReport> micro;
  micro.set_up = [=]() {
    if (!options->argv.empty()) return Status::OK();
    auto repo = repository(size_mib);
    if (!repo.ok()) return repo.status();
    *options = child == RealChild::kUploadPack ? pipe::upload_pack_child(repo->first, repo->second)
                                               : pipe::pack_objects_child(repo->first);
    options->pipe_size = pipe_size;
    options->read_size = pipe::kNuProcessBufferCapacity;
    options->timeout_s = 300;
    options->write_recorder = pipe::built_write_recorder();
    options->log_reads = !options->write_recorder.empty();
    return Status::OK();
  };
  micro.run = [options, cpu, same_runs, cost]() {
    auto r = pipe::run_real_pump(*options);
    if (!r.ok() || !r->exited || r->exit_status != 0) return Metrics{{"failed", 1}};
    if (r->child_cpu_s >= 0) {
      cpu->own.push_back(r->child_cpu_s);
      cpu->descendants.push_back(r->descendants_cpu_s);
    }
    if (options->log_reads && !add_same_run(*r, cost, *same_runs)) ++same_runs->failed;
    return Metrics{{"bytes", static_cast<double>(r->bytes)},
                   {"reads", static_cast<double>(r->reads)},
                   {"pipe_size_set", static_cast<double>(r->pipe_size)},
                   {"packets", static_cast<double>(r->band1_packets)},
                   {"payload", static_cast<double>(r->band1_bytes)}};
  };
  micro.report = [cpu, same_runs](double seconds, const Metrics& counters) {
    auto get = [&](const char* name) { return counters.count(name) != 0 ? counters.at(name) : 0.0; };
    RealPumpReport m;
    m.throughput_mib_s = get("bytes") / seconds / kMiB;
    m.seconds = seconds;
    m.bytes = get("bytes");
    m.reads = get("reads");
    m.bytes_per_read = get("reads") > 0 ? get("bytes") / get("reads") : 0.0;
    m.pipe_size_set = get("pipe_size_set");
    m.failed = get("failed");
    if (!cpu->own.empty()) m.child_cpu_ms = 1e3 * median_of(cpu->own);
    if (!cpu->descendants.empty()) m.descendants_cpu_ms = 1e3 * median_of(cpu->descendants);
    m.packets = get("packets");
    // upload-pack: its CPU over the whole clone (start-up included) / the band-1 packets it relayed.
    if (get("packets") > 0 && !cpu->own.empty())
      m.cpu_per_packet_us = 1e6 * median_of(cpu->own) / get("packets");
    const SameRunSamples& same = *same_runs;
    m.same_run_reads = median_of(same.real_reads);
    m.same_run_sim_reads = median_of(same.sim_reads);
    m.same_run_median_sim_reads = median_of(same.median_sim_reads);
    m.same_run_mib_s = median_of(same.real_mib_s);
    m.same_run_sim_mib_s = median_of(same.sim_mib_s);
    m.same_run_median_sim_mib_s = median_of(same.median_sim_mib_s);
    m.sim_over_real = median_of(same.ratio);
    if (!same.wake_latency.empty()) m.wake_latency_us = 1e6 * median_of(same.wake_latency);
    if (!same.read_c0.empty()) m.read_c0_us = 1e6 * median_of(same.read_c0);
    if (!same.read_c1.empty()) m.read_c1_ns = 1e9 * median_of(same.read_c1);
    m.same_runs = static_cast<double>(same.ratio.size());
    m.same_runs_failed = same.failed;
    return m;
  };
  return micro;
}

}  // namespace perflab::pipe_study
