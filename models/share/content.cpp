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
  for (; at + 8 <= end; at += 8, out += 8) {
    uint64_t z = word(seed_, at / 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(out, &z, 8);
#else
    for (int b = 0; b < 8; ++b) out[b] = static_cast<char>(z >> (8 * b));
#endif
  }
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
