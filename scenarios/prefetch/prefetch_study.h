// The `prefetch` study's pieces, registered together in prefetch_study.cpp: the simulated JGit job
// (jgit_job.cpp) and the PR-shaped headline report (prefetch_report.cpp).
#pragma once

#include "sim/run_table.h"
#include "sim/study.h"

namespace perflab::prefetch_study {

Result<Metrics> run_jgit_job(const RunContext& context);
std::string depth_report(const RunTable& table);
std::string pareto_report(const RunTable& table);

}  // namespace perflab::prefetch_study
