// One experiment's processes and pipes, wired as the study notes describe, and what it measured.
//
//   writer = "git":    PackObjects -> inner pipe -> UploadPack -> pipe under study -> reader
//   writer = "fixed" / "trace":  ReplayWriter -> pipe under study -> reader
//
// Windows pipes are WindowsPipe (NPFS), Linux pipes LinuxPipe. The mechanism applies to Windows only: on
// Linux poll() is real and reads are never delayed, whatever `mechanism` says.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "models/common/enum_names.h"
#include "models/common/status.h"
#include "models/pipe/git_writer.h"
#include "models/pipe/mechanism.h"
#include "models/pipe/readers.h"
#include "models/pipe/replay_writer.h"

namespace perflab::pipe {

enum class Platform { kWindows, kLinux };
inline const EnumNames<Platform> kPlatformNames{
    "platform", {{Platform::kWindows, "windows"}, {Platform::kLinux, "linux"}}};
enum class WriterKind { kGit, kFixed, kTrace };
inline const EnumNames<WriterKind> kWriterNames{
    "writer", {{WriterKind::kGit, "git"}, {WriterKind::kFixed, "fixed"}, {WriterKind::kTrace, "trace"}}};

struct PipelineOptions {
  Platform platform = Platform::kWindows;
  Mechanism mechanism = Mechanism::kPollTick;
  ReaderOptions reader;        // pump, read size, handler cost
  size_t pipe_buffer = 65536;  // the pipe under study: NPFS quota, or Linux pipe size requested
  WriterKind writer = WriterKind::kGit;
  uint64_t transfer_bytes = 48 << 20;     // git and fixed: bytes of pack data to move
  double pack_rate = 48.0 * 1024 * 1024;  // git: pack-objects' production, bytes/s
  size_t relay_buffer = 8192;             // git: upload-pack's xread size
  double relay_cost =
      32e-6;              // git: upload-pack's CPU per relayed packet, s: 16 Win32 calls x 2 us (NOTES.md)
  size_t inner_pipe = 0;  // git: pack-objects -> upload-pack pipe; 0 = 8,192 (Windows), 65,536 (Linux)
  double timer_resolution = 0.015625;        // H2: Windows timer tick, seconds
  double timer_phase = 0;                    // H2: where the tick grid starts, in [0, timer_resolution)
  std::function<double()> completion_delay;  // H1: draws D in seconds per delayed read
  size_t chunk_size = 8192;                  // fixed: bytes per write
  double write_rate = 48.0 * 1024 * 1024;    // fixed: bytes/s
  std::vector<WriteEvent> trace;             // trace: the writes to replay
  uint64_t content_seed = 1;
};

// Rules no single parameter can check: pump and platform, sizes, the writer's rates.
Status validate(const PipelineOptions& options);
// What the caller hands in besides the parameters: the writes of a trace, the completion-delay draws.
Status validate_inputs(const PipelineOptions& options);

struct PipelineResult {
  double duration_s = 0;           // until the reader saw end of stream
  double last_read_handled_s = 0;  // until the reader had handled the last bytes (before end of stream)
  uint64_t bytes = 0;              // bytes the reader got (pack data plus side-band framing, for git)
  uint64_t payload_bytes = 0;      // pack (or written) bytes moved
  uint64_t reads = 0;
  uint64_t poll_sleeps = 0;
  uint64_t relays = 0;  // git: upload-pack's loop iterations that read
  uint64_t delayed_completions = 0;
  double writer_blocked_s = 0;  // time the writer of the pipe under study waited on it
  bool conserved = false;       // checksum of what the reader got == checksum of what was written
};

class Pipeline {
 public:
  // `waker` is the scheduler; `spans` may be null. Call validate() and validate_inputs() first.
  Pipeline(const PipelineOptions& options, Waker& waker, SpanSink* spans);
  // Indexed by ProcessId.
  std::vector<Process*> processes() const;
  // Valid once every process has finished.
  PipelineResult result() const;

 private:
  PipelineOptions options_;
  std::unique_ptr<CompletionDelay> delay_;
  std::unique_ptr<Pipe> inner_;
  std::unique_ptr<Pipe> outer_;
  std::unique_ptr<Reader> reader_;
  std::unique_ptr<PackObjects> pack_objects_;
  std::unique_ptr<UploadPack> upload_pack_;
  std::unique_ptr<ReplayWriter> replay_;
};

}  // namespace perflab::pipe
