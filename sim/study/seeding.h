// What seeds a run, in one place. ns-3's model (RngSeedManager's seed and run number, one stream per
// random variable): a run's random numbers depend on
//   - the scenario's `seed` ([scenario] seed, 1 by default),
//   - the replication r (0 .. seeds-1): the run's seed is seed + r, the CSV's `seed` column,
//   - the name of the stream a random source draws from ("network.latency", "prefetch.rpc_delay", ...),
// and on nothing else: never on the grid point's parameters, their spelling, the keys' order or which
// other points the grid holds. So every point of a sweep draws the same numbers for the same seed (common
// random numbers: depth 0 against depth 1, eager against coalesced are paired comparisons), and a subset of
// the grid, a new knob at its default or a re-spelled value give the very same rows.
// Each random source names its own stream, so adding draws to one source never shifts another's numbers.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/sampling/rng.h"

namespace perflab {

// The seed of replication `replication` of a scenario whose [scenario] seed is `scenario_seed`.
constexpr uint64_t run_seed(uint64_t scenario_seed, int replication) {
  return scenario_seed + static_cast<uint64_t>(replication);
}

// The generator of one named stream of one run.
inline Rng stream_rng(uint64_t run_seed, std::string_view stream) {
  return Rng(derive_seed(run_seed, fnv1a(stream)));
}

// The stream of the network's per-message latency draws (sim/engines/simgrid_world.h).
inline constexpr std::string_view kNetworkLatencyStream = "network.latency";

}  // namespace perflab
