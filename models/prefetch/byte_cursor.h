// ByteCursor: a bounds-checked reader of big-endian integers over a std::string_view.
// The class-file scanner reads untrusted bytes through it, so every read says whether the bytes were there
// instead of reading past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "models/common/status.h"

namespace perflab::prefetch {

class ByteCursor {
 public:
  explicit ByteCursor(std::string_view bytes) : bytes_(bytes) {}

  std::size_t offset() const { return offset_; }
  std::size_t remaining() const { return bytes_.size() - offset_; }

  bool read_u1(std::uint8_t* value) {
    if (remaining() < 1) return false;
    *value = byte(offset_);
    offset_ += 1;
    return true;
  }

  bool read_u2(std::uint16_t* value) {
    if (remaining() < 2) return false;
    *value = static_cast<std::uint16_t>(byte(offset_) << 8 | byte(offset_ + 1));
    offset_ += 2;
    return true;
  }

  bool read_u4(std::uint32_t* value) {
    if (remaining() < 4) return false;
    *value = std::uint32_t{byte(offset_)} << 24 | std::uint32_t{byte(offset_ + 1)} << 16 |
             std::uint32_t{byte(offset_ + 2)} << 8 | std::uint32_t{byte(offset_ + 3)};
    offset_ += 4;
    return true;
  }

  // The next `length` bytes, without copying.
  bool read_bytes(std::size_t length, std::string_view* bytes) {
    if (remaining() < length) return false;
    *bytes = bytes_.substr(offset_, length);
    offset_ += length;
    return true;
  }

  bool skip(std::size_t length) {
    if (remaining() < length) return false;
    offset_ += length;
    return true;
  }

 private:
  std::uint8_t byte(std::size_t at) const { return static_cast<std::uint8_t>(bytes_[at]); }

  std::string_view bytes_;
  std::size_t offset_ = 0;
};

// The start every class file shares (JVMS 4.1): magic, minor and major version, constant_pool_count.
// Returns constant_pool_count, or what is wrong with the start.
inline Result<std::uint16_t> read_class_file_start(ByteCursor& in) {
  constexpr std::uint32_t kClassFileMagic = 0xCAFEBABE;
  std::uint32_t magic = 0;
  std::uint16_t constant_pool_count = 0;
  if (!in.read_u4(&magic) || !in.skip(4) || !in.read_u2(&constant_pool_count)) {
    return Status::Error("class file truncated: " + std::to_string(in.offset() + in.remaining()) +
                         " bytes, expected at least 10 (magic, version, constant_pool_count)");
  }
  if (magic != kClassFileMagic) return Status::Error("not a class file: bad magic, expected 0xCAFEBABE");
  if (constant_pool_count == 0) {
    return Status::Error("malformed class file: constant_pool_count is 0, expected at least 1");
  }
  return constant_pool_count;
}

}  // namespace perflab::prefetch
