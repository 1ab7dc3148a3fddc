// xoshiro256** (Blackman and Vigna, 2018) seeded through splitmix64, as their reference code specifies.
#include "sim/sampling/rng.h"

namespace perflab {
namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

uint64_t rotate_left(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

// The splitmix64 output function: a bijection on 64-bit values with strong avalanche.
uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t splitmix64_next(uint64_t& state) {
  state += kGolden;
  return mix64(state);
}

}  // namespace

Rng::Rng(uint64_t seed) {
  for (uint64_t& word : state_) word = splitmix64_next(seed);
}

uint64_t Rng::next_u64() {
  const uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

double Rng::uniform01() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

uint64_t Rng::uniform_index(uint64_t n) {
  if (n == 0) return 0;
  // Reject the lowest (2^64 mod n) values so that every residue is equally likely.
  const uint64_t threshold = (0 - n) % n;
  uint64_t r = next_u64();
  while (r < threshold) r = next_u64();
  return r % n;
}

uint64_t derive_seed(uint64_t run_seed, uint64_t stream) {
  uint64_t hash = 0x6a09e667f3bcc909ULL;
  for (uint64_t input : {run_seed, stream}) {
    hash = mix64(hash ^ mix64(input + kGolden));
  }
  return hash;
}

}  // namespace perflab
