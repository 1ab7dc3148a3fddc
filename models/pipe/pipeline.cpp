// Wiring of the experiment (see pipeline.h).
#include "models/pipe/pipeline.h"

#include <string>

namespace perflab::pipe {

Status validate(const PipelineOptions& o) {
  const bool windows = o.platform == Platform::kWindows;
  if (o.reader.pump == Pump::kNuProcessEpoll && windows) {
    return Status::Error(
        "pump \"nuprocess-epoll\" is NuProcess's Linux pump, expected platform = \"linux\" "
        "(on Windows NuProcess uses \"nuprocess-iocp\")");
  }
  if (o.reader.pump == Pump::kNuProcessIocp && !windows) {
    return Status::Error(
        "pump \"nuprocess-iocp\" is NuProcess's Windows pump, expected platform = \"windows\" "
        "(on Linux NuProcess uses \"nuprocess-epoll\")");
  }
  if (o.pipe_buffer == 0) return Status::Error("pipe_buffer must be at least 1 byte, got 0");
  if (o.reader.read_size == 0) return Status::Error("read_size must be at least 1 byte, got 0");
  if (!(o.reader.handler_c0 >= 0) || !(o.reader.handler_c1 >= 0)) {  // NaN fails too
    return Status::Error("handler_c0 and handler_c1 must be >= 0");
  }
  if (!(o.reader.wake_latency >= 0)) return Status::Error("wake_latency must be >= 0 s");
  if (windows && o.mechanism == Mechanism::kPollTick && !(o.timer_resolution > 0)) {
    return Status::Error("timer_resolution must be > 0 with mechanism = \"poll-tick\"");
  }
  if (!(o.timer_phase >= 0) || (o.timer_resolution > 0 && o.timer_phase >= o.timer_resolution)) {
    return Status::Error("timer_phase must be in [0, timer_resolution)");
  }
  switch (o.writer) {
    case WriterKind::kGit:
      if (o.transfer_bytes == 0) return Status::Error("transfer_bytes must be at least 1 byte, got 0");
      if (!(o.pack_rate > 0)) return Status::Error("pack_rate must be > 0 bytes/s");
      if (o.relay_buffer == 0 || o.relay_buffer > 65515) {
        return Status::Error(
            "relay_buffer must be 1 .. 65,515 bytes (a side-band-64k packet's payload), got " +
            std::to_string(o.relay_buffer));
      }
      if (!(o.relay_cost >= 0)) return Status::Error("relay_cost must be >= 0 s");
      break;
    case WriterKind::kFixed:
      if (o.transfer_bytes == 0) return Status::Error("transfer_bytes must be at least 1 byte, got 0");
      if (o.chunk_size == 0) return Status::Error("chunk_size must be at least 1 byte, got 0");
      if (!(o.write_rate > 0)) return Status::Error("write_rate must be > 0 bytes/s");
      break;
    case WriterKind::kTrace:
      break;
  }
  return Status::OK();
}

Status validate_inputs(const PipelineOptions& o) {
  if (o.platform == Platform::kWindows && o.mechanism == Mechanism::kCompletionDelay && !o.completion_delay) {
    return Status::Error("mechanism = \"completion-delay\" needs a completion_delay distribution");
  }
  if (o.writer == WriterKind::kTrace && o.trace.empty())
    return Status::Error("writer = \"trace\" needs a trace file with at least one write");
  return Status::OK();
}

namespace {
constexpr ProcessId kReader = 0;
constexpr ProcessId kWriter = 1;  // upload-pack, or the replay writer
constexpr ProcessId kPackObjects = 2;
}  // namespace

Pipeline::Pipeline(const PipelineOptions& options, Waker& waker, SpanSink* spans) : options_(options) {
  const bool windows = options.platform == Platform::kWindows;
  if (windows && options.mechanism == Mechanism::kCompletionDelay) {
    delay_ = std::make_unique<CompletionDelay>(options.completion_delay);
  }
  if (windows) {
    auto pipe = std::make_unique<WindowsPipe>(options.pipe_buffer, waker, delay_.get());
    reader_ = std::make_unique<WindowsReader>(kReader, *pipe, options.reader, spans);
    outer_ = std::move(pipe);
  } else {
    auto pipe = std::make_unique<LinuxPipe>(options.pipe_buffer, waker);
    reader_ = std::make_unique<LinuxReader>(kReader, *pipe, options.reader, spans);
    outer_ = std::move(pipe);
  }
  switch (options.writer) {
    case WriterKind::kGit: {
      size_t inner = options.inner_pipe != 0 ? options.inner_pipe : (windows ? 8192 : 65536);
      if (windows) {
        inner_ = std::make_unique<WindowsPipe>(inner, waker);
      } else {
        inner_ = std::make_unique<LinuxPipe>(inner, waker);
      }
      UploadPackOptions relay{options.relay_buffer, options.relay_cost, std::nullopt};
      if (windows && options.mechanism == Mechanism::kPollTick) {
        relay.poll_tick = PollTick(options.timer_resolution, options.timer_phase);
      }
      upload_pack_ = std::make_unique<UploadPack>(kWriter, *inner_, *outer_, relay, spans);
      PackObjectsOptions pack{options.transfer_bytes, options.pack_rate, 8192, options.content_seed};
      pack_objects_ = std::make_unique<PackObjects>(kPackObjects, *inner_, pack, spans);
      break;
    }
    case WriterKind::kFixed:
      replay_ = std::make_unique<ReplayWriter>(
          kWriter, *outer_, fixed_schedule(options.transfer_bytes, options.chunk_size, options.write_rate),
          options.content_seed, spans);
      break;
    case WriterKind::kTrace:
      replay_ = std::make_unique<ReplayWriter>(kWriter, *outer_, options.trace, options.content_seed, spans);
      break;
  }
}

std::vector<Process*> Pipeline::processes() const {
  if (upload_pack_) return {reader_.get(), upload_pack_.get(), pack_objects_.get()};
  return {reader_.get(), replay_.get()};
}

PipelineResult Pipeline::result() const {
  PipelineResult r;
  const ReaderStats& got = reader_->stats();
  r.duration_s = got.finished_at;
  r.last_read_handled_s = got.last_handled_at;
  r.bytes = got.checksum.bytes();
  r.reads = got.reads;
  r.delayed_completions = delay_ ? delay_->delayed() : 0;
  if (upload_pack_) {
    const WriterStats& relay = upload_pack_->stats();
    r.payload_bytes = pack_objects_->stats().checksum.bytes();
    r.poll_sleeps = relay.poll_sleeps;
    r.relays = relay.relays;
    r.writer_blocked_s = relay.blocked_s;
    r.conserved = got.checksum == relay.checksum && relay.payload == pack_objects_->stats().checksum;
  } else {
    r.payload_bytes = replay_->checksum().bytes();
    r.writer_blocked_s = replay_->blocked_s();
    r.conserved = got.checksum == replay_->checksum();
  }
  return r;
}

}  // namespace perflab::pipe
