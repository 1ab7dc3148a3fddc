// The `share` study's pieces, registered together in share_study.cpp: the download on SimGrid
// (download.cpp), the micro-engine calibration of the span-operation cost (calibrate.cpp), the
// ticket-shaped headline report (share_report.cpp) and the shares every run of a grid point reads
// (encoded once per point, before the runs are forked).
#pragma once

#include <memory>

#include "models/share/layout.h"
#include "sim/study.h"

namespace perflab::share_study {

// Encodes the point's file from what kFileParams name (prepare(): every point that agrees on them shares it).
Result<std::shared_ptr<const share::EncodedFile>> encoded_file(const Params& params);
inline const std::vector<std::string> kFileParams = {"file_size", "k", "n", "segment_size"};

// Seconds of CPU per counted span operation, per decoded byte and per plain read() call (on each side:
// client and server), for the point's `cpu` calibration (NOTES.md derives them).
struct CpuCosts {
  double seconds_per_op;
  double seconds_per_byte;
  double seconds_per_call;
};
CpuCosts cpu_costs(const Params& params);

Result<Metrics> run_download(const RunContext& context);
Result<MicroWorkload> setup_calibration(const Params& params, const PointInputs& inputs);
std::string headline_report(const RunTable& table);

}  // namespace perflab::share_study
