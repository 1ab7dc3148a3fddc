// The `pipe` study's pieces, registered together in pipe_study.cpp: reading a grid point's parameters into
// the model's options, the SimGrid driver (pipe_driver.cpp) and the seed-shaped headline report
// (pipe_report.cpp).
#pragma once

#include "models/pipe/pipeline.h"
#include "sim/run_table.h"
#include "sim/study.h"

namespace perflab::pipe_study {

// The model's options for one grid point. Random parts (the timer phase, the completion-delay draws) are
// left for the driver, which owns the run's generator.
Result<pipe::PipelineOptions> options_from(const Params& params);
Result<Metrics> run_pipe(const RunContext& context);
std::string headline_report(const RunTable& table);
std::string seed_rate_report(const RunTable& table);  // seed_rate_report.cpp
std::string linux_sim_report(const RunTable& table);
Result<MicroWorkload> setup_linux_real(const Params& params);
std::string linux_real_report(const RunTable& table);

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace perflab::pipe_study
