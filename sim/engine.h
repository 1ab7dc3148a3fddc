// The two engines a scenario can run on: `sim` (SimGrid: simulated network and time) and `micro` (the real
// code on the real CPU under Google Benchmark). Parsed once from the scenario file; everything else
// switches on the enum.
#pragma once

#include <optional>
#include <string>

namespace perflab {

enum class Engine { kSim, kMicro };

inline const char* engine_name(Engine engine) {
  return engine == Engine::kSim ? "sim" : "micro";
}

inline std::optional<Engine> parse_engine(const std::string& name) {
  if (name == "sim") return Engine::kSim;
  if (name == "micro") return Engine::kMicro;
  return std::nullopt;
}

}  // namespace perflab
