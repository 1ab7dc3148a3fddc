// SHA-256, one or two streams at a time (see sha256_lanes.h). The compression function is FIPS 180-4's:
// in plain C++ (compress_portable), and on SHA-NI, where SHA256RNDS2 does two rounds on the state held as
// the words (A, B, E, F) and (C, D, G, H), SHA256MSG1/MSG2 extend the message schedule four words at a
// time, and the two-stream version runs the same steps on two states in turn.
#include "models/share/sha256_lanes.h"

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>
#include <cstring>

namespace perflab::share {
namespace {

constexpr std::array<uint32_t, 8> kInitialState = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

alignas(16) constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}

uint32_t load_be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// FIPS 180-4 6.2.2: one 64-byte block into the state.
void compress_portable(uint32_t* state, const unsigned char* block) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t t1 =
        h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRoundConstants[t] + w[t];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

#define PERFLAB_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

// `Lanes` states side by side; each step below is done for every lane before the next step, so that the
// lanes' dependent instructions interleave.
template <int Lanes>
struct ShaLanes {
  __m128i abef[Lanes];  // (A, B, E, F): the words SHA256RNDS2 takes as its second operand
  __m128i cdgh[Lanes];

  // state[0..7] = A..H  <->  the two registers.
  PERFLAB_SHA_TARGET void load(uint32_t* const* states) {
    for (int l = 0; l < Lanes; ++l) {
      __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(states[l]));      // lanes A B C D
      __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(states[l] + 4));  // lanes E F G H
      __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);                                     // B A D C
      __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);                                     // H G F E
      abef[l] = _mm_alignr_epi8(cdab, efgh, 8);                                         // F E B A
      cdgh[l] = _mm_blend_epi16(efgh, cdab, 0xF0);                                      // H G D C
    }
  }

  PERFLAB_SHA_TARGET void store(uint32_t* const* states) const {
    for (int l = 0; l < Lanes; ++l) {
      __m128i feba = _mm_shuffle_epi32(abef[l], 0x1B);   // A B E F
      __m128i dchg = _mm_shuffle_epi32(cdgh[l], 0xB1);   // G H C D
      __m128i dcba = _mm_blend_epi16(feba, dchg, 0xF0);  // A B C D
      __m128i hgfe = _mm_alignr_epi8(dchg, feba, 8);     // E F G H
      _mm_storeu_si128(reinterpret_cast<__m128i*>(states[l]), dcba);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(states[l] + 4), hgfe);
    }
  }

  // One 64-byte block per lane.
  PERFLAB_SHA_TARGET void compress(const unsigned char* const* blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i w[Lanes][4];  // the message schedule, four words per register, a ring of the last 16 words
    __m128i saved_abef[Lanes];
    __m128i saved_cdgh[Lanes];
    for (int l = 0; l < Lanes; ++l) {
      saved_abef[l] = abef[l];
      saved_cdgh[l] = cdgh[l];
    }
#pragma GCC unroll 16
    for (int group = 0; group < 16; ++group) {  // rounds 4 * group .. 4 * group + 3
      const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(kRoundConstants + 4 * group));
#pragma GCC unroll 4
      for (int l = 0; l < Lanes; ++l) {
        __m128i& next = w[l][group % 4];
        if (group < 4) {
          next = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks[l] + 16 * group)),
                                  byte_swap);
        } else {
          // W[t..t+3] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16]
          const __m128i& last = w[l][(group + 3) % 4];  // W[t-4..t-1]
          __m128i partial = _mm_sha256msg1_epu32(next, w[l][(group + 1) % 4]);
          partial = _mm_add_epi32(partial, _mm_alignr_epi8(last, w[l][(group + 2) % 4], 4));
          next = _mm_sha256msg2_epu32(partial, last);
        }
      }
#pragma GCC unroll 4
      for (int l = 0; l < Lanes; ++l) {
        __m128i wk = _mm_add_epi32(w[l][group % 4], k);
        cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], wk);  // two rounds: now the new (A, B, E, F)
        abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(wk, 0x0E));
      }
    }
    for (int l = 0; l < Lanes; ++l) {
      abef[l] = _mm_add_epi32(abef[l], saved_abef[l]);
      cdgh[l] = _mm_add_epi32(cdgh[l], saved_cdgh[l]);
    }
  }
};

PERFLAB_SHA_TARGET void compress_one_sha_ni(uint32_t* state, const unsigned char* block) {
  ShaLanes<1> lanes;
  lanes.load(&state);
  lanes.compress(&block);
  lanes.store(&state);
}

// `count` blocks of each stream, the two streams' rounds interleaved.
PERFLAB_SHA_TARGET void compress_two_sha_ni(uint32_t* a, const unsigned char* blocks_a, uint32_t* b,
                                            const unsigned char* blocks_b, size_t count) {
  uint32_t* states[2] = {a, b};
  ShaLanes<2> lanes;
  lanes.load(states);
  for (size_t i = 0; i < count; ++i) {
    const unsigned char* blocks[2] = {blocks_a + 64 * i, blocks_b + 64 * i};
    lanes.compress(blocks);
  }
  lanes.store(states);
}

bool detect_sha_ni() {
  __builtin_cpu_init();
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  const bool sha = (ebx >> 29) & 1;  // CPUID.(EAX=7, ECX=0):EBX.SHA[bit 29]
  return sha && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
}

const unsigned char* bytes(std::string_view data) {
  return reinterpret_cast<const unsigned char*>(data.data());
}

}  // namespace

bool sha256_lanes_available() {
  static const bool available = detect_sha_ni();
  return available;
}

Sha256::Sha256(bool sha_ni) : sha_ni_(sha_ni && sha256_lanes_available()), state_(kInitialState) {}

void Sha256::compress(const unsigned char* block) {
  if (sha_ni_) return compress_one_sha_ni(state_.data(), block);
  compress_portable(state_.data(), block);
}

std::string_view Sha256::top_up(std::string_view data) {
  length_ += data.size();
  if (partial_size_ == 0) return data;
  const size_t take = std::min(partial_.size() - partial_size_, data.size());
  std::memcpy(partial_.data() + partial_size_, data.data(), take);
  partial_size_ += take;
  data.remove_prefix(take);
  if (partial_size_ == partial_.size()) {
    compress(partial_.data());
    partial_size_ = 0;
  }
  return data;
}

void Sha256::keep_tail(std::string_view data) {
  std::memcpy(partial_.data() + partial_size_, data.data(), data.size());
  partial_size_ += data.size();
}

void Sha256::absorb(std::string_view data) {
  for (; data.size() >= 64; data.remove_prefix(64)) compress(bytes(data));
  keep_tail(data);
}

void Sha256::update(std::string_view data) {
  absorb(top_up(data));
}

void Sha256::update_pair(Sha256& a, std::string_view da, Sha256& b, std::string_view db) {
  da = a.top_up(da);
  db = b.top_up(db);
  if (a.sha_ni_ && b.sha_ni_) {
    const size_t both = std::min(da.size(), db.size()) / 64;
    compress_two_sha_ni(a.state_.data(), bytes(da), b.state_.data(), bytes(db), both);
    da.remove_prefix(64 * both);
    db.remove_prefix(64 * both);
  }
  a.absorb(da);  // what is left of either: its own blocks, then its tail
  b.absorb(db);
}

Sha256::Digest Sha256::finish() {
  const uint64_t bits = length_ * 8;
  unsigned char padding[72] = {0x80};
  const size_t pad = (partial_size_ < 56 ? 56 : 120) - partial_size_;
  for (int i = 0; i < 8; ++i)
    padding[pad + static_cast<size_t>(i)] = static_cast<unsigned char>(bits >> (56 - 8 * i));
  update(std::string_view(reinterpret_cast<const char*>(padding), pad + 8));
  Digest digest{};
  for (size_t i = 0; i < 8; ++i) {
    for (size_t j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<unsigned char>(state_[i] >> (24 - 8 * j));
  }
  return digest;
}

}  // namespace perflab::share
