// Systematic Reed-Solomon over GF(2^8) (see erasure.h): log/exp tables for the field, Gauss-Jordan
// inversion of the k x k matrix of the shares received.
#include "models/share/erasure.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace perflab::share {
namespace {

struct Field {
  std::array<uint8_t, 512> exp{};
  std::array<int, 256> log{};
  Field() {
    int x = 1;
    for (int i = 0; i < 255; ++i) {
      exp[static_cast<size_t>(i)] = static_cast<uint8_t>(x);
      log[static_cast<size_t>(x)] = i;
      x <<= 1;
      if (x & 0x100) x ^= 0x11d;
    }
    for (size_t i = 255; i < 512; ++i) exp[i] = exp[i - 255];
  }
  uint8_t mul(uint8_t a, uint8_t b) const {
    if (a == 0 || b == 0) return 0;
    return exp[static_cast<size_t>(log[a]) + static_cast<size_t>(log[b])];
  }
  uint8_t inv(uint8_t a) const { return exp[static_cast<size_t>(255 - log[a])]; }
};

const Field& field() {
  static const Field instance;
  return instance;
}

// c times every 4-bit value, for the low and the high nibble of a byte: c * v = low[v & 15] ^ high[v >> 4]
// (the split-table method of ISA-L and gf-complete), for every c, built once.
struct SplitTables {
  std::array<std::array<uint8_t, 16>, 256> low{};
  std::array<std::array<uint8_t, 16>, 256> high{};
  SplitTables() {
    for (int c = 0; c < 256; ++c) {
      for (int v = 0; v < 16; ++v) {
        low[static_cast<size_t>(c)][static_cast<size_t>(v)] =
            field().mul(static_cast<uint8_t>(c), static_cast<uint8_t>(v));
        high[static_cast<size_t>(c)][static_cast<size_t>(v)] =
            field().mul(static_cast<uint8_t>(c), static_cast<uint8_t>(v << 4));
      }
    }
  }
};

const SplitTables& split_tables() {
  static const SplitTables instance;
  return instance;
}

void mul_add_scalar(char* out, const char* in, size_t n, const uint8_t* low, const uint8_t* high) {
  for (size_t b = 0; b < n; ++b) {
    auto v = static_cast<uint8_t>(in[b]);
    out[b] = static_cast<char>(static_cast<uint8_t>(out[b]) ^ low[v & 0x0f] ^ high[v >> 4]);
  }
}

// out ^= c * in over n bytes, 16 bytes per step with SSSE3's byte shuffle.
__attribute__((target("ssse3"))) void mul_add_ssse3(char* out, const char* in, size_t n, const uint8_t* low,
                                                    const uint8_t* high) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(high));
  const __m128i mask = _mm_set1_epi8(0x0f);
  size_t b = 0;
  for (; b + 16 <= n; b += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + b));
    __m128i product = _mm_xor_si128(_mm_shuffle_epi8(lo, _mm_and_si128(v, mask)),
                                    _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi64(v, 4), mask)));
    __m128i o = _mm_loadu_si128(reinterpret_cast<const __m128i*>(out + b));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + b), _mm_xor_si128(o, product));
  }
  mul_add_scalar(out + b, in + b, n - b, low, high);
}

// The same, 32 bytes per step with AVX2 (the tables in both 128-bit lanes).
__attribute__((target("avx2"))) void mul_add_avx2(char* out, const char* in, size_t n, const uint8_t* low,
                                                  const uint8_t* high) {
  const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(low)));
  const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(high)));
  const __m256i mask = _mm256_set1_epi8(0x0f);
  size_t b = 0;
  for (; b + 32 <= n; b += 32) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + b));
    __m256i product =
        _mm256_xor_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, mask)),
                         _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi64(v, 4), mask)));
    __m256i o = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(out + b));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + b), _mm256_xor_si256(o, product));
  }
  mul_add_scalar(out + b, in + b, n - b, low, high);
}

// The same, 64 bytes per step with AVX-512BW (the tables in all four 128-bit lanes).
__attribute__((target("avx512f,avx512bw"))) void mul_add_avx512(char* out, const char* in, size_t n,
                                                                const uint8_t* low, const uint8_t* high) {
  // (maskz_ with every lane set: the unmasked broadcast trips GCC 12's -Wuninitialized in its header)
  const __m512i lo =
      _mm512_maskz_broadcast_i32x4(0xffff, _mm_loadu_si128(reinterpret_cast<const __m128i*>(low)));
  const __m512i hi =
      _mm512_maskz_broadcast_i32x4(0xffff, _mm_loadu_si128(reinterpret_cast<const __m128i*>(high)));
  const __m512i mask = _mm512_set1_epi8(0x0f);
  size_t b = 0;
  for (; b + 64 <= n; b += 64) {
    __m512i v = _mm512_loadu_si512(in + b);
    __m512i product =
        _mm512_xor_si512(_mm512_shuffle_epi8(lo, _mm512_and_si512(v, mask)),
                         _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), mask)));
    _mm512_storeu_si512(out + b, _mm512_xor_si512(_mm512_loadu_si512(out + b), product));
  }
  mul_add_avx2(out + b, in + b, n - b, low, high);
}

void mul_add(char* out, const char* in, size_t n, uint8_t c) {
  if (c == 0) return;
  const uint8_t* low = split_tables().low[c].data();
  const uint8_t* high = split_tables().high[c].data();
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  static const bool avx2 = __builtin_cpu_supports("avx2");
  static const bool ssse3 = __builtin_cpu_supports("ssse3");
  if (avx512) return mul_add_avx512(out, in, n, low, high);
  if (avx2) return mul_add_avx2(out, in, n, low, high);
  if (ssse3) return mul_add_ssse3(out, in, n, low, high);
  mul_add_scalar(out, in, n, low, high);
}

void mul_add(std::string& out, const std::string& in, uint8_t c) {
  mul_add(out.data(), in.data(), in.size(), c);
}

}  // namespace

ErasureCode::ErasureCode(int k, int n) : k_(k), n_(n) {}

uint8_t ErasureCode::coefficient(int share, int slice) const {
  if (share < k_) return share == slice ? 1 : 0;
  // Cauchy rows: 1 / (x_share + y_slice) with x in [k, n) and y in [0, k) distinct, so never zero.
  return field().inv(static_cast<uint8_t>(share ^ slice));
}

void ErasureCode::encode_block(const char* segment, size_t segment_size, int share, char* out) const {
  size_t block_size = segment_size / static_cast<size_t>(k_);
  if (share < k_) {
    std::memcpy(out, segment + static_cast<size_t>(share) * block_size, block_size);
    return;
  }
  std::memset(out, 0, block_size);
  for (int j = 0; j < k_; ++j)
    mul_add(out, segment + static_cast<size_t>(j) * block_size, block_size, coefficient(share, j));
}

std::vector<std::string> ErasureCode::encode(const std::string& segment) const {
  size_t block_size = segment.size() / static_cast<size_t>(k_);
  std::vector<std::string> slices;
  slices.reserve(static_cast<size_t>(k_));
  for (int j = 0; j < k_; ++j)
    slices.push_back(segment.substr(static_cast<size_t>(j) * block_size, block_size));
  std::vector<std::string> blocks(slices.begin(), slices.end());
  for (int i = k_; i < n_; ++i) {
    std::string block(block_size, '\0');
    for (int j = 0; j < k_; ++j) mul_add(block, slices[static_cast<size_t>(j)], coefficient(i, j));
    blocks.push_back(std::move(block));
  }
  return blocks;
}

Result<std::vector<std::vector<uint8_t>>> ErasureCode::invert(const std::vector<int>& rows) const {
  auto k = static_cast<size_t>(k_);
  // matrix = the rows of the received shares, augmented with the identity, reduced to [I | inverse].
  std::vector<std::vector<uint8_t>> m(k, std::vector<uint8_t>(2 * k, 0));
  for (size_t r = 0; r < k; ++r) {
    for (size_t c = 0; c < k; ++c) m[r][c] = coefficient(rows[r], static_cast<int>(c));
    m[r][k + r] = 1;
  }
  for (size_t col = 0; col < k; ++col) {
    size_t pivot = col;
    while (pivot < k && m[pivot][col] == 0) ++pivot;
    if (pivot == k) return Status::Error("decode: singular matrix (duplicate shares?)");
    std::swap(m[pivot], m[col]);
    uint8_t scale = field().inv(m[col][col]);
    for (auto& v : m[col]) v = field().mul(v, scale);
    for (size_t r = 0; r < k; ++r) {
      if (r == col || m[r][col] == 0) continue;
      uint8_t factor = m[r][col];
      for (size_t c = 0; c < 2 * k; ++c) m[r][c] ^= field().mul(factor, m[col][c]);
    }
  }
  for (auto& row : m) row.erase(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(k));
  return m;
}

Result<std::string> ErasureCode::decode(const std::map<int, std::string>& blocks) const {
  std::string segment;
  Status decoded = decode_into(blocks, segment);
  if (!decoded.ok()) return decoded;
  return segment;
}

Status ErasureCode::decode_into(const std::map<int, std::string>& blocks, std::string& segment) const {
  if (static_cast<int>(blocks.size()) < k_) {
    return Status::Error("decode needs " + std::to_string(k_) + " blocks, got " +
                         std::to_string(blocks.size()));
  }
  std::vector<int> rows;
  std::vector<const std::string*> inputs;
  for (const auto& [share, block] : blocks) {
    if (static_cast<int>(rows.size()) == k_) break;
    if (share < 0 || share >= n_) return Status::Error("decode: share number out of range");
    rows.push_back(share);
    inputs.push_back(&block);
  }
  auto k = static_cast<size_t>(k_);
  if (rows != inverse_rows_) {
    auto inverse = invert(rows);
    if (!inverse.ok()) return inverse.status();
    inverse_ = std::move(inverse).value();
    inverse_rows_ = rows;
  }
  const auto& m = inverse_;
  size_t block_size = inputs[0]->size();
  for (const std::string* input : inputs) {
    if (input->size() != block_size) return Status::Error("decode: blocks of different sizes");
  }
  segment.assign(block_size * k, '\0');
  for (size_t j = 0; j < k; ++j) {
    char* slice = segment.data() + j * block_size;
    auto primary = std::find(rows.begin(), rows.end(), static_cast<int>(j));
    if (primary != rows.end()) {  // as zfec: a primary block given is the slice itself
      std::memcpy(slice, inputs[static_cast<size_t>(primary - rows.begin())]->data(), block_size);
      continue;
    }
    for (size_t r = 0; r < k; ++r) mul_add(slice, inputs[r]->data(), block_size, m[j][r]);
  }
  return Status::OK();
}

}  // namespace perflab::share
