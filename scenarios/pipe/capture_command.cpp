// `perflab capture pipe --out DIR -- COMMAND [args]`: the pipe study's workload from any command. Runs it
// with perflab_write_recorder preloaded (models/pipe/write_recorder.cpp: every write(2) on its stdout
// timed inside the child) while the real epoll pump (models/pipe/real_pump.h) drains its stdout through a
// pipe of each --pipe-size, --runs times each, `--gap` apart, round the sizes. Per size it keeps the run
// with the median kernel reads and writes DIR/NAME.SIZE.writes.csv (time_s,bytes,copied_s: the trace the
// `trace` writer replays, with that run's measured wake latency and read cost, models/pipe/same_run.h);
// DIR/NAME.toml replays the first size's trace through every pump and pipe size. It prints every run's
// kernel reads beside the model's on the same run. Bad input is an error with exit 2 and nothing written.
#include <sys/utsname.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "models/pipe/readers.h"
#include "models/pipe/real_pump.h"
#include "models/pipe/replay_writer.h"
#include "models/pipe/same_run.h"
#include "sim/cli/capture.h"
#include "sim/cli/child_process.h"
#include "sim/cli/commands.h"
#include "sim/cli/flag_checks.h"
#include "sim/runner/interrupt_guard.h"
#include "sim/sampling/units.h"
#include "sim/study/knobs.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

constexpr size_t kMaxStdin = 64 * 1024;  // what RealPumpOptions::stdin_data takes
constexpr double kRunTimeout = 300;      // seconds, a whole child run

struct Run {
  pipe::SameRun same;
  uint64_t sim_reads = 0;          // the model with the run's wake-ups as a series
  uint64_t median_wake_reads = 0;  // with their median only, as the written scenario's Linux case runs
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string kernel_release() {
  utsname u{};
  return uname(&u) == 0 ? std::string(u.release) : "?";
}

// The trace file of the chosen run: what it is, then the lines the reports read ("real:", "measured:").
std::string trace_file_text(const Run& chosen, size_t asked, size_t runs, const std::string& command_line) {
  const pipe::SameRun& s = chosen.same;
  char real_line[160], measured_line[320];
  std::snprintf(real_line, sizeof(real_line),
                "real: reads=%llu bytes=%llu pipe_size_set=%zu model_reads=%llu",
                static_cast<unsigned long long>(s.real_reads), static_cast<unsigned long long>(s.real_bytes),
                s.pipe_size, static_cast<unsigned long long>(chosen.sim_reads));
  std::snprintf(measured_line, sizeof(measured_line),
                "measured: wake_latency=%.3fus read_c0=%.3fus read_c1=%.4fns copy_c0=%.3fus copy_c1=%.4fns",
                1e6 * s.wake_latency, 1e6 * s.read_c0, 1e9 * s.read_c1, 1e6 * s.copy_c0, 1e9 * s.copy_c1);
  return pipe::same_run_trace_csv(
      s,
      {"Writes of `" + on_one_line(command_line) + "` on its stdout (Linux " + kernel_release() + "),",
       "through the real epoll pump with a pipe of " + std::to_string(asked) + " B asked, " +
           std::to_string(s.pipe_size) + " B set: the run with the median reads of " + std::to_string(runs) +
           " runs,",
       "recorded inside the child by perflab_write_recorder (perflab capture pipe). Seconds since the first",
       "write, bytes, and when the write's copy was done: time_s + min(the syscall's time, copy_c0 + copy_c1 "
       "* bytes).",
       "Bytes the pump read that no recorded write accounts for (written without libc's write, or before",
       "the recorder was loaded) are one write at the pump's first read.", real_line, measured_line});
}

// The scenario: the trace through every pump (cases, as in git-clone.toml) and pipe size (the sweep); the
// Linux pump with the latency and read cost measured in the captured run.
std::string scenario_text(const std::string& name, const std::string& trace, const pipe::SameRun& s,
                          const std::string& command_line) {
  std::ostringstream t;
  t << "# Written by `perflab capture pipe` from: " << on_one_line(command_line) << "\n"
    << "# Its captured writes on stdout (" << trace << ") replayed through every pump and pipe size.\n"
    << "# The Windows pumps take the study's calibrated reader costs and both explanations (poll-tick,\n"
    << "# completion-delay) with the control (none); the Linux pump takes the median wake-up and the read "
       "cost\n"
    << "# measured in the captured run (the median only, not the run's series of wake-ups: its reads are "
       "the\n"
    << "# capture's 'model, median wake-up only' column, not its 'model' one). Run: perflab run " << name
    << ".toml\n"
    << "[scenario]\nname = \"pipe-" << name << "\"\nstudy = \"pipe\"\nengine = \"sim\"\n"
    << "description = \"" << name << "'s writes through every pump and pipe size\"\nseeds = 3\nseed = 1\n\n"
    << "[network]\nlatency = \"constant(0ms)\"\nbandwidth = \"1GBps\"\n\n"
    << "[params]\nwriter = \"trace\"\ntrace = \"" << trace << "\"\n\n"
    << "[sweep]\nmechanism = [\"poll-tick\", \"completion-delay\", \"none\"]\n"
    << "pipe_buffer = [\"4120B\", \"16KiB\", \"64KiB\", \"1MiB\"]\n\n"
    << "[[case]]\nname = \"jdk\"\npump = \"jdk-blocking\"\nplatform = \"windows\"\n\n"
    << "[[case]]\nname = \"nuprocess-iocp\"\npump = \"nuprocess-iocp\"\nplatform = \"windows\"\n\n"
    << "[[case]]\nname = \"linux\"\npump = \"nuprocess-epoll\"\nplatform = \"linux\"\n"
    << "wake_latency = \"" << format_quantity(s.wake_latency, Quantity::kDuration, Spelling::kLiteral)
    << "\"\n"
    << "handler_c0 = \"" << format_quantity(s.read_c0, Quantity::kDuration, Spelling::kLiteral) << "\"\n"
    << "handler_c1 = \"" << format_quantity(s.read_c1, Quantity::kDuration, Spelling::kLiteral) << "\"\n";
  return t.str();
}

// capture pipe's own options, beside those every capture takes.
struct PipeCaptureOptions {
  std::vector<std::string> pipe_sizes;  // asked with F_SETPIPE_SZ, e.g. 64KiB; empty: 64KiB
  int runs = 1;
  std::string gap = "0s";
  std::string stdin_file;
};

int capture_pipe(const CaptureFlags& flags, const PipeCaptureOptions& options) {
  InterruptGuard interrupt;  // Ctrl-C or SIGTERM: the command is stopped and nothing is written
  const std::string what = "capture pipe: ";
  if (flags.command.empty()) return fail_input(what + "no command after --, expected `-- COMMAND [args]`");
  std::vector<size_t> sizes;
  for (const auto& text :
       options.pipe_sizes.empty() ? std::vector<std::string>{"64KiB"} : options.pipe_sizes) {
    auto size = parse_quantity(text, Quantity::kSize, UnitRule::kPlainIsBaseUnit);
    if (!size.ok() || *size < 1)
      return fail_input(what + "--pipe-size " + text + ": expected a size such as 4120, 16KiB or 1MiB");
    sizes.push_back(static_cast<size_t>(*size));
  }
  auto gap = parse_quantity(options.gap, Quantity::kDuration, UnitRule::kPlainIsBaseUnit);
  if (!gap.ok()) return fail_input(what + "--gap " + options.gap + ": " + gap.status().message());
  std::string stdin_data;
  if (!options.stdin_file.empty()) {
    std::ifstream in(options.stdin_file, std::ios::binary);
    if (!in) return fail_input(what + "--stdin " + options.stdin_file + ": cannot read the file");
    stdin_data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (stdin_data.size() > kMaxStdin)
      return fail_input(what + "--stdin " + options.stdin_file + " has " + std::to_string(stdin_data.size()) +
                        " bytes, expected at most " + std::to_string(kMaxStdin));
  }
  const std::string recorder = pipe::built_write_recorder();
  if (recorder.empty())
    return fail_input(what +
                      "perflab_write_recorder is not built (cmake --build build --target "
                      "perflab_write_recorder)");
  const std::string name = flags.name.empty() ? fs::path(flags.command[0]).filename().string() : flags.name;
  const std::string command_line = shell_words(flags.command);

  auto created = CaptureFolder::Create(flags);
  if (!created.ok()) return fail_input(what + created.status().message());
  CaptureFolder folder = std::move(created).value();

  const fs::path stderr_file = folder.staged("stderr.txt");
  // A run that failed, with the reason and what the command said on stderr.
  auto failed = [&](const std::string& reason) {
    return fail_input(what + command_line + reason +
                      "; the end of its stderr:" + last_lines(stderr_file, 10));
  };
  std::map<size_t, std::vector<Run>> by_size;
  bool header_printed = false;  // printed with the first row: a command that fails at once shows no table
  for (int round = 0; round < options.runs; ++round) {
    for (size_t size : sizes) {
      pipe::RealPumpOptions o;
      o.argv = flags.command;
      o.stdin_data = stdin_data;
      o.pipe_size = size;
      o.read_size = pipe::kNuProcessBufferCapacity;
      o.timeout_s = kRunTimeout;
      o.write_recorder = recorder;
      o.log_reads = true;
      o.stderr_file = stderr_file.string();
      o.own_process_group = true;
      o.stop = InterruptGuard::interrupted;
      auto real = pipe::run_real_pump(o);
      if (InterruptGuard::interrupted()) return capture_interrupted("capture pipe");
      if (!real.ok()) return failed(": " + real.status().message());
      if (!real->exited || real->exit_status != 0) {
        return failed((real->exited ? " exited with status " + std::to_string(real->exit_status)
                                    : " was killed by signal " + std::to_string(real->signal)) +
                      ", expected 0");
      }
      if (real->bytes == 0) return failed(" wrote nothing on stdout, expected its output");
      auto same = pipe::same_run_from(*real);
      if (!same.ok()) return failed(": " + same.status().message());
      auto sim = pipe::replay_same_run(*same);
      if (!sim.ok()) return fail_input(what + command_line + ": " + sim.status().message());
      auto at_median = pipe::replay_same_run(*same, pipe::WakeModel::kMedian);
      if (!at_median.ok()) return fail_input(what + command_line + ": " + at_median.status().message());
      if (!header_printed) {
        std::printf(
            "| run | pipe asked | kernel: reads | bytes per read | model: reads | model / kernel | wake-up "
            "(median) | read cost |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        header_printed = true;
      }
      char wake[64];
      if (same->wake_samples == 0) {
        std::snprintf(wake, sizeof wake, "none sampled");
      } else {
        std::snprintf(wake, sizeof wake, "%.2f us of %zu", 1e6 * same->wake_latency, same->wake_samples);
      }
      std::printf("| %d | %zu B | %llu | %.0f | %llu | %.3f | %s | %.2f us + %.3f ns/B |\n", round + 1, size,
                  static_cast<unsigned long long>(real->reads),
                  static_cast<double>(real->bytes) / static_cast<double>(real->reads),
                  static_cast<unsigned long long>(sim->reads),
                  static_cast<double>(sim->reads) / static_cast<double>(real->reads), wake,
                  1e6 * same->read_c0, 1e9 * same->read_c1);
      std::fflush(stdout);
      if (real->unrecorded_bytes > 0) {
        std::fprintf(
            stderr,
            "capture pipe: note: %llu of the %llu bytes read were written past the recorder (without "
            "libc's write, or before it was loaded): one write at the pump's first read\n",
            static_cast<unsigned long long>(real->unrecorded_bytes),
            static_cast<unsigned long long>(real->bytes));
      }
      by_size[size].push_back({*same, sim->reads, at_median->reads});
      // The gap, in slices short enough that Ctrl-C or SIGTERM is seen at once.
      for (double left = *gap; left > 0 && !InterruptGuard::interrupted(); left -= 0.05)
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.05)));
      if (InterruptGuard::interrupted()) return capture_interrupted("capture pipe");
    }
  }

  std::printf(
      "\n| pipe asked | runs | kernel: reads (median) | model: reads (median) | model, median wake-up only: "
      "reads (median) | trace |\n"
      "|---:|---:|---:|---:|---:|---|\n");
  for (size_t size : sizes) {
    std::vector<Run>& all = by_size[size];
    std::vector<double> real_reads, sim_reads, median_wake_reads;
    for (const Run& r : all) {
      real_reads.push_back(static_cast<double>(r.same.real_reads));
      sim_reads.push_back(static_cast<double>(r.sim_reads));
      median_wake_reads.push_back(static_cast<double>(r.median_wake_reads));
    }
    std::vector<Run> sorted = all;
    std::sort(sorted.begin(), sorted.end(),
              [](const Run& a, const Run& b) { return a.same.real_reads < b.same.real_reads; });
    const Run& chosen = sorted[sorted.size() / 2];
    const std::string file =
        name + "." +
        format_quantity(static_cast<double>(chosen.same.pipe_size), Quantity::kSize, Spelling::kLiteral) +
        ".writes.csv";
    const std::string text = trace_file_text(chosen, size, all.size(), command_line);
    auto readable = pipe::parse_trace(text, file);  // as the `trace` writer will read it
    if (!readable.ok()) return fail_input(what + readable.status().message());
    std::ofstream(folder.staged(file)) << text;
    if (size == sizes.front()) {
      std::ofstream(folder.staged(name + ".toml")) << scenario_text(name, file, chosen.same, command_line);
    }
    std::printf("| %zu B | %zu | %.0f | %.0f | %.0f | %s |\n", size, all.size(), median(real_reads),
                median(sim_reads), median(median_wake_reads), file.c_str());
  }
  fs::remove(stderr_file);
  if (InterruptGuard::interrupted()) return capture_interrupted("capture pipe");
  auto written = folder.commit();
  if (!written.ok()) return fail_input(what + written.status().message());
  for (const auto& file : *written) std::printf("wrote %s\n", file.c_str());
  std::printf("run it: perflab run %s\n", (folder.out() / (name + ".toml")).c_str());
  return 0;
}

}  // namespace

const CaptureRegistration kPipeCapture(
    {"pipe",
     "Run a command through the real epoll pump with its writes on stdout recorded: write "
     "OUT/NAME.SIZE.writes.csv and NAME.toml (the writes through every pump and pipe size)",
     [](CLI::App& sub) {
       auto options = std::make_shared<PipeCaptureOptions>();
       sub.add_option("--pipe-size", options->pipe_sizes,
                      "Pipe sizes asked with F_SETPIPE_SZ, a trace each (default 64KiB)")
           ->allow_extra_args(false);
       sub.add_option("--runs", options->runs, "Runs per pipe size; the median run's trace is kept")
           ->check(whole_number_at_least(1));
       sub.add_option("--gap", options->gap, "Pause after each run, e.g. 2s");
       sub.add_option("--stdin", options->stdin_file, "File given to the command on stdin (<= 64 KiB)");
       return [options](const CaptureFlags& flags) { return capture_pipe(flags, *options); };
     }});

}  // namespace perflab
