// See machine_load.h.
#include "sim/engines/machine_load.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <fstream>

namespace perflab {
namespace {

// Calibrated constant: about 20 ms of one core of this project's 2-core VM (AMD EPYC), long enough to
// span a scheduler time slice, short enough to add no noticeable time to a run.
constexpr uint64_t kProbeIterations = 20'000'000;

double probe_once_ms() {
  auto start = std::chrono::steady_clock::now();
  volatile uint64_t sink = 0;
  uint64_t x = 1;
  for (uint64_t i = 0; i < kProbeIterations; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  sink = x;
  (void)sink;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

MachineLoad measure_machine_load() {
  MachineLoad load;
  std::ifstream loadavg("/proc/loadavg");
  if (!(loadavg >> load.load_average)) load.load_average = -1;
  std::array<double, 3> probes{probe_once_ms(), probe_once_ms(), probe_once_ms()};
  std::sort(probes.begin(), probes.end());
  load.probe_ms = probes[1];
  return load;
}

}  // namespace perflab
