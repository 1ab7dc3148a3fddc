// The `share` study's pieces, registered together in share_study.cpp: the knobs and what they set, the
// download (one driver, downloader.h) on SimGrid (download.cpp) and in real time (real_download.cpp), the
// micro-engine calibration of the span-operation cost (calibrate.cpp) and the shares every run of a grid
// point reads (encoded once per point, before the runs are forked). Its presentation (the ticket-shaped
// reports, plots) is scenarios/share/page.py.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/enum_names.h"
#include "models/share/fetcher.h"
#include "models/share/layout.h"
#include "models/share/share.h"
#include "sim/study/knobs.h"
#include "sim/study/metrics.h"
#include "sim/study/study.h"

namespace perflab::share_study {

// Where the CPU costs come from (cpu_costs()).
enum class CpuCalibration { kTahoe19, kMeasured, kNone };
inline const EnumNames<CpuCalibration> kCpuCalibrationNames{"cpu calibration",
                                                            {{CpuCalibration::kTahoe19, "tahoe-1.9"},
                                                             {CpuCalibration::kMeasured, "measured"},
                                                             {CpuCalibration::kNone, "none"}}};

// What the micro engine times (calibrate.cpp).
enum class CalibrationWorkload { kLoop, kDecode };
inline const EnumNames<CalibrationWorkload> kCalibrationWorkloadNames{
    "workload", {{CalibrationWorkload::kLoop, "loop"}, {CalibrationWorkload::kDecode, "decode"}}};

// Everything a share scenario sets. A negative CPU cost stands for the `cpu` calibration's (cpu_costs()).
struct ShareOptions {
  std::string file;  // a file whose real bytes are uploaded and downloaded; empty: SeededContent's bytes
  uint64_t file_size = uint64_t{12} * 1024 * 1024;  // with `file`: the file's size (complete_file_size())
  int64_t k = 3;                                    // needed_shares
  int64_t n = 10;                                   // total_shares
  uint64_t segment_size = uint64_t{128} * 1024;
  share::LoopPolicy loop = share::LoopPolicy::kCoalesced;
  CpuCalibration cpu = CpuCalibration::kTahoe19;
  double ns_per_op = -1;
  double hash_ns_per_byte = -1;    // per byte of each segment: its blocks and itself hashed, assembled
  double decode_ns_per_byte = -1;  // per byte multiplied in rebuilding a block from parity (DecodeWork)
  double call_cost_us = -1;
  double native_message_cost_us = 0;    // sim: the real client's own CPU per call message and its answer
  double native_ns_per_byte = 0;        // sim: the real client's own CPU per segment byte (hashing, copying)
  double native_wait_cost_us = 0;       // sim: the real client's own time per I/O pass that waited (wake-ups)
  double dyhb_rtt_resolution_s = 1e-3;  // DYHB round-trip times compared at this resolution (downloader.h)
  uint64_t segment_size_guess = share::kGuessedSegmentSize;
  double poll_window_s = 0;
  CalibrationWorkload workload = CalibrationWorkload::kLoop;  // micro
  int64_t passes = 2000;                                      // micro
};

// The study's knobs, each bound to the member of ShareOptions it sets.
const Knobs<ShareOptions>& knobs();

// Encodes the point's file from what kFileParams name (prepare(): every point that agrees on them shares it).
Result<std::shared_ptr<const share::EncodedFile>> encoded_file(const ShareOptions& options);
inline const std::vector<std::string> kFileParams = {"file", "file_size", "k", "n", "segment_size"};

// With `file` set, file_size is the file's size: set in the point's parameters (so its tables show it), an
// error if the scenario set another size or the file is empty. Without `file`, nothing changes.
Status complete_file_size(Params& params);

// Seconds of CPU per counted span operation, per byte of a segment (hashed and assembled), per byte
// multiplied in rebuilding a block from parity and per plain read() call (on each side: client and server),
// for the point's `cpu` calibration (NOTES.md derives them; "none": all zero). The one table both engines
// charge: the sim as simulated CPU, the real engine as CPU it burns beside its own code's.
struct CpuCosts {
  double seconds_per_op;
  double seconds_per_hashed_byte;
  double seconds_per_decoded_byte;
  double seconds_per_call;
};
CpuCosts cpu_costs(const ShareOptions& options);

// The simulated CPU and time of one download, beside the shares' own counters.
struct Totals {
  double cpu_s = 0;
  double wasted_cpu_s = 0;
  double call_cpu_s = 0;        // the client's, in remote calls
  double server_cpu_s = 0;      // all servers', in remote calls
  double decode_cpu_s = 0;      // the client's, hashing and decoding segments
  uint64_t tokens = 0;          // Banana tokens the client sent and parsed
  uint64_t call_messages = 0;   // messages of calls the client sent: one per server per turn with calls
  uint64_t rebuilt_blocks = 0;  // blocks decoding rebuilt from parity (DecodeWork), all segments
  uint64_t waits = 0;           // the client's I/O passes that waited for answers (sim: none was due yet)
  double done_at = 0;
};

// What one download measures on either engine (the one driver, downloader.h): every share's counters
// summed, the totals, the shares that died (their server lost: real engine only) and the bytes each message
// kind put on the wire, both directions (protocol.h; a server that died sends no report of its own).
struct DownloadResult {
  share::ShareStats shares;
  Totals totals;
  uint64_t dead_shares = 0;
  std::vector<int> shares_read;  // the share numbers the download read blocks of (which shares DYHB chose)
  std::map<std::string, uint64_t> bytes_sent;
};

// What a real-engine download measures: the driver's (its charged CPU is what the client burnt and the
// servers waited out, from the same table as the sim's; totals.done_at is the wall-clock duration) and how
// late the nodes' timers woke (sim/engines/real/).
struct RealDownloadResult {
  DownloadResult download;
  uint64_t sleeps = 0;
  double oversleep_mean_s = 0;
  double oversleep_max_s = 0;
  bool realtime = false;
};

// The bytes a download delivers (Download::on_data), compared as they come with the file's own, read from
// its content source: exact, and cheaper than hashing the whole file again (100 MB of SHA-256d per run).
class DeliveredBytes {
 public:
  explicit DeliveredBytes(const share::EncodedFile& file) : file_(file) {}
  void add(const std::string& segment);
  bool equal_so_far() const { return equal_; }

 private:
  const share::EncodedFile& file_;
  uint64_t offset_ = 0;
  bool equal_ = true;
  std::string expected_;  // the file's bytes at the segment last compared (reused)
};

// Why a download that ended is not a success (it failed, stalled, or delivered other bytes than the
// file's); empty for a success. Both engines judge their downloads by it.
std::string download_failure(const share::DownloadResult& result, const share::EncodedFile& file,
                             const DeliveredBytes& delivered);

// What a calibration workload measures from its median time.
struct CalibrationReport {
  double seconds = 0;
  double span_ops = 0;
  double measured_ns_per_op = 0;
  double us_per_pass = 0;
  double ns_per_byte = 0;
};

// The study's metrics of each engine, each bound to the member that carries it.
const MetricBindings<DownloadResult>& sim_metrics();
const MetricBindings<CalibrationReport>& micro_metrics();
const MetricBindings<RealDownloadResult>& real_metrics();

// The download on SimGrid (download.cpp) and in real time (real_download.cpp) with `options` (the study
// binds them to the point's, knobs().options(context.params)).
Result<DownloadResult> run_download(const RunContext& context, const ShareOptions& options);
Result<RealDownloadResult> run_real_download(const RunContext& context, const ShareOptions& options);
Result<MicroWorkloadOf<CalibrationReport>> setup_calibration(const Params& params, const PointInputs& inputs);
// `perflab calibrate share`: native_message_cost and native_ns_per_byte, fitted apart (calibration_fit.cpp).
CalibrationHook calibration_fit();

}  // namespace perflab::share_study
