// The three pumps (see readers.h).
#include "models/pipe/readers.h"

namespace perflab::pipe {

Reader::Reader(ProcessId id, ReaderOptions options, SpanSink* spans)
    : id_(id), options_(options), spans_(spans) {}

size_t Reader::read_size() const {
  return options_.pump == Pump::kJdkBlocking ? options_.read_size : kNuProcessBufferCapacity;
}

Action Reader::handle(const Bytes& data, double issued, double now) {
  if (spans_ != nullptr) spans_->span(name_, "read " + std::to_string(data.size()) + " B", issued, now);
  if (data.empty()) {
    stats_.finished_at = now;
    return Finished{};
  }
  ++stats_.reads;
  stats_.checksum.add(data);
  const double cpu = options_.handler_c0 + options_.handler_c1 * static_cast<double>(data.size());
  stats_.last_handled_at = options_.wake_series ? options_.wake_series->finish(now, cpu) : now + cpu;
  return Compute{stats_.last_handled_at - now};
}

WindowsReader::WindowsReader(ProcessId id, WindowsPipe& pipe, ReaderOptions options, SpanSink* spans)
    : Reader(id, options, spans), pipe_(pipe) {}

Action WindowsReader::step(double now) {
  if (!outstanding_) {
    ReadMode mode = options_.pump == Pump::kNuProcessIocp ? ReadMode::kOverlapped : ReadMode::kBlocking;
    outstanding_ = true;
    issued_ = now;
    pipe_.issue_read(id_, read_size(), mode, now);
  }
  if (pipe_.read_pending()) {
    if (auto deadline = pipe_.completion_deadline(); deadline && now >= *deadline) pipe_.expire(now);
  }
  if (pipe_.read_pending()) return Wait{pipe_.completion_deadline().value_or(kForever)};
  outstanding_ = false;
  return handle(pipe_.take_completed(), issued_, now);
}

LinuxReader::LinuxReader(ProcessId id, LinuxPipe& pipe, ReaderOptions options, SpanSink* spans)
    : Reader(id, options, spans), pipe_(pipe) {}

Action LinuxReader::step(double now) {
  if (!waiting_) {
    waiting_ = true;
    since_ = now;
  }
  if (pipe_.available() == 0 && !pipe_.closed()) {
    pipe_.notify_when_readable(id_);
    slept_ = true;
    return Wait{};
  }
  const WakeSeries* series = options_.wake_series.get();
  if (slept_ && !latency_paid_ && (series != nullptr || options_.wake_latency > 0)) {
    latency_paid_ = true;
    const double runs_at = series != nullptr ? series->woken(now) : now + options_.wake_latency;
    if (runs_at > now) return SleepUntil{runs_at};
  }
  if (series != nullptr && !slept_) {  // polling again: not before the pump was back on its CPU
    if (const double runs_at = series->finish(now, 0); runs_at > now) return SleepUntil{runs_at};
  }
  waiting_ = false;
  slept_ = false;
  latency_paid_ = false;
  return handle(pipe_.read_now(read_size(), now), since_, now);
}

}  // namespace perflab::pipe
