// The `dispatcher` study's two drivers, registered together in dispatcher_study.cpp: the micro engine times
// the real Dispatcher on the PR's benchmark and adversarial workloads; the sim engine replays the incident
// (threads piling up on the dispatcher lock) with the real Dispatcher behind a simulated mutex.
#pragma once

#include "sim/study.h"

namespace perflab::dispatcher_study {

// The strategy that runs the real OkHttp 3.13.1 on a JVM instead of a C++ port.
inline constexpr const char* kOkHttpJvm = "okhttp-jvm";

Result<MicroWorkload> setup_micro_workload(const Params& params, const PointInputs& inputs);
Result<MicroWorkload> setup_okhttp_jvm_workload(const Params& params);
Result<Metrics> run_incident(const RunContext& context);
std::string burst_report(const RunTable& table);
std::string exponent_report(const RunTable& table);
std::vector<Claim> dispatcher_claims(const RunTable& table);

}  // namespace perflab::dispatcher_study
