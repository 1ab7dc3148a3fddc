// pipe_capture_same_run: real `git upload-pack` runs through the real Linux pump, each recording its own
// writes (models/pipe/same_run.h), replayed into the model with the same pipe; prints every run's kernel and
// model reads and the medians per pipe size, and writes for each size the trace of its median run (by the
// kernel's reads) with what was measured in it, for pipe-linux-sim. Runs go round the sizes, `gap` apart, so
// a size's runs are spread over the capture rather than back to back. Used by capture_trace.sh.
//
// Usage: pipe_capture_same_run REPO HEAD OUT_DIR RUNS GAP_MS SIZE...
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/pipe/real_git.h"
#include "models/pipe/same_run.h"

namespace {

using perflab::pipe::SameRun;

struct Run {
  SameRun same;
  uint64_t sim_reads = 0;
  double ratio = 0;
};

std::string command_output(const char* command) {
  std::unique_ptr<FILE, int (*)(FILE*)> out(popen(command, "r"), pclose);
  char text[256] = {};
  if (!out || fgets(text, sizeof(text), out.get()) == nullptr) return "?";
  std::string s = text;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string size_name(size_t bytes) {
  if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + "MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + "KiB";
  return std::to_string(bytes) + "B";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s REPO HEAD OUT_DIR RUNS GAP_MS SIZE...\n", argv[0]);
    return 2;
  }
  const std::string repo = argv[1], head = argv[2], out_dir = argv[3];
  const int runs = std::stoi(argv[4]);
  const int gap_ms = std::stoi(argv[5]);
  std::vector<size_t> sizes;
  for (int i = 6; i < argc; ++i) sizes.push_back(std::stoul(argv[i]));
  const std::string recorder = perflab::pipe::built_write_recorder();
  if (recorder.empty()) {
    std::fprintf(stderr, "perflab_write_recorder is not built\n");
    return 1;
  }

  std::map<size_t, std::vector<Run>> by_size;
  std::printf(
      "| run | pipe asked | kernel: reads | bytes per read | model: reads | bytes per read | model / kernel "
      "| wake latency | read cost |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int round = 0; round < runs; ++round) {
    for (size_t size : sizes) {
      perflab::pipe::RealPumpOptions o = perflab::pipe::upload_pack_child(repo, head);
      o.pipe_size = size;
      o.read_size = perflab::pipe::kNuProcessBufferCapacity;
      o.timeout_s = 300;
      o.write_recorder = recorder;
      o.log_reads = true;
      auto real = perflab::pipe::run_real_pump(o);
      if (!real.ok() || real->exit_status != 0) {
        std::fprintf(stderr, "run failed: %s\n",
                     real.ok() ? "git exited non-zero" : real.status().message().c_str());
        return 1;
      }
      auto same = perflab::pipe::same_run_from(*real);
      if (!same.ok()) {
        std::fprintf(stderr, "%s\n", same.status().message().c_str());
        return 1;
      }
      auto sim = perflab::pipe::replay_same_run(*same);
      if (!sim.ok()) {
        std::fprintf(stderr, "%s\n", sim.status().message().c_str());
        return 1;
      }
      Run run{*same, sim->reads, static_cast<double>(sim->reads) / static_cast<double>(real->reads)};
      std::printf("| %d | %s | %llu | %.0f | %llu | %.0f | %.3f | %.2f us | %.2f us + %.3f ns/B |\n",
                  round + 1, size_name(size).c_str(), static_cast<unsigned long long>(real->reads),
                  static_cast<double>(real->bytes) / static_cast<double>(real->reads),
                  static_cast<unsigned long long>(sim->reads),
                  static_cast<double>(sim->bytes) / static_cast<double>(sim->reads), run.ratio,
                  1e6 * same->wake_latency, 1e6 * same->read_c0, 1e9 * same->read_c1);
      std::fflush(stdout);
      by_size[size].push_back(run);
      std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    }
  }

  const std::string git = command_output("git --version 2>/dev/null");
  const std::string kernel = command_output("uname -r");
  std::printf(
      "\n| pipe asked | runs | kernel: reads (median) | model: reads (median) | model / kernel (median) | "
      "trace written |\n|---:|---:|---:|---:|---:|---|\n");
  for (size_t size : sizes) {
    std::vector<Run>& all = by_size[size];
    std::vector<double> real_reads, sim_reads, ratios;
    for (const Run& r : all) {
      real_reads.push_back(static_cast<double>(r.same.real_reads));
      sim_reads.push_back(static_cast<double>(r.sim_reads));
      ratios.push_back(r.ratio);
    }
    std::vector<Run> sorted = all;
    std::sort(sorted.begin(), sorted.end(),
              [](const Run& a, const Run& b) { return a.same.real_reads < b.same.real_reads; });
    const Run& chosen = sorted[sorted.size() / 2];
    const SameRun& s = chosen.same;
    const std::string file = "git-upload-pack." + size_name(s.pipe_size) + ".writes.csv";
    char real_line[160], measured_line[320];
    std::snprintf(
        real_line, sizeof(real_line), "real: reads=%llu bytes=%llu pipe_size_set=%zu model_reads=%llu",
        static_cast<unsigned long long>(s.real_reads), static_cast<unsigned long long>(s.real_bytes),
        s.pipe_size, static_cast<unsigned long long>(chosen.sim_reads));
    std::snprintf(measured_line, sizeof(measured_line),
                  "measured: wake_latency=%.3fus read_c0=%.3fus read_c1=%.4fns copy_c0=%.3fus copy_c1=%.4fns",
                  1e6 * s.wake_latency, 1e6 * s.read_c0, 1e9 * s.read_c1, 1e6 * s.copy_c0, 1e9 * s.copy_c1);
    std::vector<std::string> comment = {
        "Writes of `git upload-pack` on its stdout serving a clone of the deterministic repository of",
        "scenarios/pipe/make_repo.sh (" + git + ", Linux " + kernel +
            "), through the real epoll pump with a pipe",
        "of " + std::to_string(size) + " B asked, " + std::to_string(s.pipe_size) +
            " B set: the run with the median reads of " + std::to_string(all.size()) +
            " spaced runs, recorded inside the",
        "child by perflab_write_recorder (scenarios/pipe/capture_trace.sh). Seconds since the first write,",
        "bytes, and when the write's copy was done: time_s + min(the syscall's time, copy_c0 + copy_c1 * "
        "bytes).",
        "The first write is the ref advertisement stdio wrote past the recorder, placed at the pump's first "
        "read.",
        real_line,
        measured_line,
    };
    std::ofstream(out_dir + "/" + file) << perflab::pipe::same_run_trace_csv(s, comment);
    std::printf("| %s | %zu | %.0f | %.0f | %.3f | %s (kernel %llu, model %llu) |\n", size_name(size).c_str(),
                all.size(), median(real_reads), median(sim_reads), median(ratios), file.c_str(),
                static_cast<unsigned long long>(s.real_reads),
                static_cast<unsigned long long>(chosen.sim_reads));
  }
  return 0;
}
