// Content sources (see content.h).
#include "models/share/content.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace perflab::share {
namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// Word j of the stream make_contents always wrote: splitmix64's (j+1)-th output from state seed*C + 1.
uint64_t word(uint64_t seed, uint64_t j) {
  uint64_t z = seed * kGolden + 1 + (j + 1) * kGolden;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Words [first, first + count) to out, 8 little-endian bytes each.
void words_scalar(uint64_t seed, uint64_t first, uint64_t count, char* out) {
  for (uint64_t j = first; j < first + count; ++j, out += 8) {
    uint64_t z = word(seed, j);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(out, &z, 8);
#else
    for (int b = 0; b < 8; ++b) out[b] = static_cast<char>(z >> (8 * b));
#endif
  }
}

// The same, eight words per step in AVX-512 registers (a 64-bit multiply per lane is AVX512DQ's): every
// segment the servers read is generated here, a file's size of words per download.
using EightWords = uint64_t __attribute__((vector_size(64)));
__attribute__((target("avx512f,avx512dq"))) void words_avx512(uint64_t seed, uint64_t first, uint64_t count,
                                                              char* out) {
  EightWords x{};  // the splitmix64 states of words first .. first + 7
  for (int lane = 0; lane < 8; ++lane) x[lane] = seed * kGolden + 1 + (first + lane + 1) * kGolden;
  uint64_t j = 0;
  for (; j + 8 <= count; j += 8, out += 64) {
    EightWords z = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    std::memcpy(out, &z, 64);
    x += 8 * kGolden;
  }
  words_scalar(seed, first + j, count - j, out);
}

void words(uint64_t seed, uint64_t first, uint64_t count, char* out) {
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  if (avx512) return words_avx512(seed, first, count, out);
  words_scalar(seed, first, count, out);
}

}  // namespace

std::string ContentSource::read(uint64_t offset, uint64_t length) const {
  std::string out(length, '\0');
  read(offset, length, out.data());
  return out;
}

void SeededContent::read(uint64_t offset, uint64_t length, char* out) const {
  uint64_t at = offset;
  uint64_t end = offset + length;
  while (at < end && at % 8 != 0) {
    *out++ = static_cast<char>(word(seed_, at / 8) >> (8 * (at % 8)));
    ++at;
  }
  const uint64_t whole = (end - at) / 8;
  words(seed_, at / 8, whole, out);
  at += 8 * whole;
  out += 8 * whole;
  if (at < end) {
    uint64_t z = word(seed_, at / 8);
    for (int b = 0; at < end; ++b, ++at) *out++ = static_cast<char>(z >> (8 * b));
  }
}

Result<std::shared_ptr<const FileContent>> FileContent::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Error(path + ": not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return Status::Error(path + ": empty file, expected at least 1 byte");
  }
  return std::shared_ptr<const FileContent>(new FileContent(path, fd, static_cast<uint64_t>(st.st_size)));
}

FileContent::~FileContent() {
  ::close(fd_);
}

void FileContent::read(uint64_t offset, uint64_t length, char* out) const {
  while (length > 0) {
    ssize_t got = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (got <= 0) throw std::runtime_error(path_ + ": read failed (file changed while in use?)");
    out += got;
    offset += static_cast<uint64_t>(got);
    length -= static_cast<uint64_t>(got);
  }
}

void StringContent::read(uint64_t offset, uint64_t length, char* out) const {
  std::memcpy(out, bytes_.data() + offset, length);
}

}  // namespace perflab::share
