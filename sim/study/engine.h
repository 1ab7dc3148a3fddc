// The engines a scenario can run on: `sim` (SimGrid: simulated network and time), `micro` (the real code on
// the real CPU under Google Benchmark) and `real` (the sim's model objects wired by a real driver: real
// processes on a real loopback socket, in real time, the network applied in user space; sim/engines/real/). Parsed
// once from the scenario file; everything else switches on the enum.
#pragma once

#include <optional>
#include <string>

namespace perflab {

enum class Engine { kSim, kMicro, kReal };

inline const char* engine_name(Engine engine) {
  switch (engine) {
    case Engine::kSim:
      return "sim";
    case Engine::kMicro:
      return "micro";
    case Engine::kReal:
      return "real";
  }
  return "?";
}

inline std::optional<Engine> parse_engine(const std::string& name) {
  if (name == "sim") return Engine::kSim;
  if (name == "micro") return Engine::kMicro;
  if (name == "real") return Engine::kReal;
  return std::nullopt;
}

}  // namespace perflab
