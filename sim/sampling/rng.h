// Rng: the one random generator of the harness, with a fully specified algorithm (xoshiro256**,
// state filled by splitmix64), so a seed gives the same numbers on every platform and standard library.
// Never feed it to std::*_distribution: their output differs between implementations.
//
// Seeds come from derive_seed(run seed, stream): what seeds a run is said once, in sim/study/seeding.h.
#pragma once

#include <cstdint>
#include <string_view>

namespace perflab {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits: k * 2^-53 for a uniform k in [0, 2^53).
  double uniform01();
  // Uniform integer in [0, n), without modulo bias; 0 when n == 0.
  uint64_t uniform_index(uint64_t n);

 private:
  uint64_t state_[4];
};

// A seed mixing both inputs (splitmix64 finalizer, chained): changing either gives an unrelated seed, and
// their order matters.
uint64_t derive_seed(uint64_t run_seed, uint64_t stream);

// FNV-1a over the bytes: the same on every platform and in every build.
constexpr uint64_t fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace perflab
