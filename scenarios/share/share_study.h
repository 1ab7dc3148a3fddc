// The `share` study's pieces, registered together in share_study.cpp: the knobs and what they set, the
// download on SimGrid (download.cpp), the micro-engine calibration of the span-operation cost
// (calibrate.cpp), the ticket-shaped headline report (share_report.cpp) and the shares every run of a grid
// point reads (encoded once per point, before the runs are forked).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "models/common/enum_names.h"
#include "models/share/layout.h"
#include "models/share/share.h"
#include "sim/knobs.h"
#include "sim/study.h"

namespace perflab::share_study {

// Where the CPU costs come from (cpu_costs()).
enum class CpuCalibration { kTahoe19, kMeasured };
inline const EnumNames<CpuCalibration> kCpuCalibrationNames{
    "cpu calibration", {{CpuCalibration::kTahoe19, "tahoe-1.9"}, {CpuCalibration::kMeasured, "measured"}}};

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
  double decode_ns_per_byte = -1;
  double call_cost_us = -1;
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

// Seconds of CPU per counted span operation, per decoded byte and per plain read() call (on each side:
// client and server), for the point's `cpu` calibration (NOTES.md derives them).
struct CpuCosts {
  double seconds_per_op;
  double seconds_per_byte;
  double seconds_per_call;
};
CpuCosts cpu_costs(const ShareOptions& options);

Result<Metrics> run_download(const RunContext& context);
Result<MicroWorkload> setup_calibration(const Params& params, const PointInputs& inputs);
std::string headline_report(const RunTable& table);

}  // namespace perflab::share_study
