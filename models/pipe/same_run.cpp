// A recorded real run as the Linux model's inputs, and its replay (see same_run.h).
#include "models/pipe/same_run.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "models/pipe/event_loop.h"

namespace perflab::pipe {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double lowest_decile(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 10];
}

struct TimedWrite {
  double start;
  double end;
  uint64_t bytes;
};

// The run's writes in order, the unrecorded bytes included as one write at the pump's first readiness.
std::vector<TimedWrite> timed_writes(const RealPumpResult& run) {
  std::vector<TimedWrite> writes;
  for (const ChildWrite& w : run.writes) {
    if (w.result > 0) writes.push_back({w.start_s, w.end_s, static_cast<uint64_t>(w.result)});
  }
  std::sort(writes.begin(), writes.end(),
            [](const TimedWrite& a, const TimedWrite& b) { return a.start < b.start; });
  if (run.unrecorded_bytes > 0) {
    double at = run.read_log.front().ready_s;
    if (!writes.empty()) at = std::min(at, writes.front().start);
    writes.insert(writes.begin(), TimedWrite{at, at, run.unrecorded_bytes});
  }
  return writes;
}

}  // namespace

Result<SameRun> same_run_from(const RealPumpResult& run, ReaderCost cost) {
  if (run.writes.empty()) return Status::Error("the run has no recorded writes (run it with write_recorder)");
  if (run.read_log.size() != run.reads || run.reads == 0) {
    return Status::Error("the run has no read log for its reads (run it with log_reads)");
  }
  if (run.dropped_writes > 0) {
    return Status::Error("the recorder dropped " + std::to_string(run.dropped_writes) + " writes");
  }
  const std::vector<TimedWrite> writes = timed_writes(run);
  uint64_t written = 0;
  for (const TimedWrite& w : writes) written += w.bytes;
  if (written != run.bytes) {
    return Status::Error("the recorded writes add up to " + std::to_string(written) +
                         " bytes, the pump read " + std::to_string(run.bytes));
  }

  SameRun same;
  same.pipe_size = run.pipe_size;
  same.real_reads = run.reads;
  same.real_bytes = run.bytes;
  // The copy: the lower quartile of the one-page writes' times, and per byte that of the larger writes.
  std::vector<double> one_page, per_byte;
  for (const TimedWrite& w : writes) {
    if (w.end > w.start && w.bytes <= LinuxPipe::kPageSize) one_page.push_back(w.end - w.start);
  }
  same.copy_c0 = lowest_decile(one_page);
  for (const TimedWrite& w : writes) {
    if (w.bytes > LinuxPipe::kPageSize)
      per_byte.push_back(std::max(0.0, w.end - w.start - same.copy_c0) / static_cast<double>(w.bytes));
  }
  same.copy_c1 = lowest_decile(per_byte);
  const double origin = writes.front().start;
  std::vector<double> copied;  // when each write's bytes became readable
  for (const TimedWrite& w : writes) {
    const double copy = std::min(w.end - w.start, same.copy_c0 + same.copy_c1 * static_cast<double>(w.bytes));
    same.trace.push_back(WriteEvent{w.start - origin, static_cast<size_t>(w.bytes), copy});
    copied.push_back(w.start + copy);
  }

  // Walk the reads with the writes that had returned when the pump went back to epoll_wait.
  struct Busy {  // one read from when the pump was on it (re-poll or wake-up) to handled
    double from, handled;
    uint64_t bytes;
  };
  std::vector<Busy> busy;
  std::vector<double> latencies, repolls, costs;
  std::vector<std::pair<uint64_t, double>> cost_by_size;
  // The write holding the first byte not yet read, by bytes: its bytes were readable once its copy was
  // done, whenever its syscall returned (a writer that woke the pump is often preempted by it inside the
  // syscall, after the copy, and returns only once the pump has read and slept again).
  size_t next = 0;  // the write holding the first unread byte
  uint64_t before_next = 0, read_bytes = 0;
  double idle_since = 0;
  for (const PumpRead& read : run.read_log) {
    while (next < writes.size() && before_next + writes[next].bytes <= read_bytes)
      before_next += writes[next++].bytes;
    const bool partly_read = next < writes.size() && before_next < read_bytes;  // larger than the pipe
    const bool data_was_there = next >= writes.size() || partly_read || copied[next] <= idle_since;
    if (data_was_there) {
      repolls.push_back(read.ready_s - idle_since);
    } else if (writes[next].bytes <= run.pipe_size) {  // into the empty pipe whole: readable at its copy
      latencies.push_back(read.ready_s - copied[next]);
      same.wake_ups.push_back({copied[next] - origin, std::max(0.0, read.ready_s - copied[next])});
    }
    busy.push_back({data_was_there ? idle_since : read.ready_s, read.handled_s, read.bytes});
    cost_by_size.push_back({read.bytes, read.handled_s - read.ready_s});
    read_bytes += read.bytes;
    idle_since = read.handled_s;
  }
  same.wake_samples = latencies.size();
  same.wake_latency = std::max(0.0, median(latencies));
  same.real_seconds = run.read_log.back().handled_s - origin;

  // A straight line through the medians of the reads of each page count, weighted by their number: robust
  // to the reads that lost the CPU on the way.
  std::map<uint64_t, std::pair<std::vector<double>, std::vector<double>>> by_pages;  // bytes, costs
  for (const auto& [bytes, time] : cost_by_size) {
    auto& bucket = by_pages[bytes / LinuxPipe::kPageSize];
    bucket.first.push_back(static_cast<double>(bytes));
    bucket.second.push_back(time);
  }
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [pages, bucket] : by_pages) {
    const double w = static_cast<double>(bucket.first.size());
    const double x = median(bucket.first), y = median(bucket.second);
    n += w;
    sx += w * x;
    sy += w * y;
    sxx += w * x * x;
    sxy += w * x * y;
  }
  const double variance = sxx - sx * sx / n;
  if (by_pages.size() > 1 && variance > 0) {
    same.measured_read_c1 = std::max(0.0, (sxy - sx * sy / n) / variance);
    same.measured_read_c0 = std::max(0.0, (sy - same.measured_read_c1 * sx) / n);
  } else {
    for (const auto& entry : cost_by_size) costs.push_back(entry.second);
    same.measured_read_c0 = median(costs);
  }
  same.measured_read_c0 += std::max(0.0, median(repolls));
  same.read_c0 = cost.c0 >= 0 ? cost.c0 : same.measured_read_c0;
  same.read_c1 = cost.c1 >= 0 ? cost.c1 : same.measured_read_c1;

  // Each read's time beyond the cost: off its CPU, from when it was on the read (wake_series.h). Beyond
  // 1 ns: the clock's resolution, below which an excess is the arithmetic's.
  for (const Busy& b : busy) {
    const double excess = (b.handled - b.from) - (same.read_c0 + same.read_c1 * static_cast<double>(b.bytes));
    if (excess > 1e-9) same.off_cpu.push_back({b.from - origin, b.from + excess - origin});
  }
  return same;
}

PipelineOptions same_run_options(const SameRun& run, WakeModel wake) {
  PipelineOptions o;
  o.platform = Platform::kLinux;
  o.mechanism = Mechanism::kNone;
  o.reader.pump = Pump::kNuProcessEpoll;
  o.reader.handler_c0 = run.read_c0;
  o.reader.handler_c1 = run.read_c1;
  o.reader.wake_latency = run.wake_latency;
  if (wake == WakeModel::kSeries)
    o.reader.wake_series = std::make_shared<const WakeSeries>(run.wake_ups, run.off_cpu);
  o.pipe_buffer = run.pipe_size;
  o.writer = WriterKind::kTrace;
  o.trace = run.trace;
  return o;
}

Result<PipelineResult> replay_same_run(const SameRun& run, WakeModel wake) {
  PipelineOptions options = same_run_options(run, wake);
  if (Status valid = validate(options); !valid.ok()) return valid;
  EventLoop loop;
  Pipeline pipeline(options, loop, nullptr);
  auto end = loop.run(pipeline.processes());
  if (!end.ok()) return end.status();
  PipelineResult result = pipeline.result();
  if (!result.conserved) return Status::Error("the replay did not conserve the bytes written");
  return result;
}

std::string same_run_trace_csv(const SameRun& run, const std::vector<std::string>& comment) {
  std::string out;
  for (const std::string& line : comment) out += "# " + line + "\n";
  out += "time_s,bytes,copied_s\n";
  char line[96];
  for (const WriteEvent& w : run.trace) {
    std::snprintf(line, sizeof(line), "%.9f,%zu,%.9f\n", w.at, w.bytes, w.at + w.copy_s);
    out += line;
  }
  return out;
}

}  // namespace perflab::pipe
