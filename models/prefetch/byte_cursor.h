// ByteCursor: a bounds-checked reader of big-endian integers over a std::string_view.
// The class-file readers (constant_pool.h) read untrusted bytes through it, so every read says whether the
// bytes were there instead of reading past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace perflab::prefetch {

class ByteCursor {
 public:
  explicit ByteCursor(std::string_view bytes) : bytes_(bytes) {}

  std::size_t offset() const { return offset_; }
  std::size_t remaining() const { return bytes_.size() - offset_; }

  // Each read gives the value and moves past it, or nullopt (and stays put) when the bytes are not there.
  std::optional<std::uint8_t> read_u1() {
    if (remaining() < 1) return std::nullopt;
    const std::uint8_t value = byte(offset_);
    offset_ += 1;
    return value;
  }

  std::optional<std::uint16_t> read_u2() {
    if (remaining() < 2) return std::nullopt;
    const auto value = static_cast<std::uint16_t>(byte(offset_) << 8 | byte(offset_ + 1));
    offset_ += 2;
    return value;
  }

  std::optional<std::uint32_t> read_u4() {
    if (remaining() < 4) return std::nullopt;
    const std::uint32_t value = std::uint32_t{byte(offset_)} << 24 | std::uint32_t{byte(offset_ + 1)} << 16 |
                                std::uint32_t{byte(offset_ + 2)} << 8 | std::uint32_t{byte(offset_ + 3)};
    offset_ += 4;
    return value;
  }

  // The next `length` bytes, without copying.
  std::optional<std::string_view> read_bytes(std::size_t length) {
    if (remaining() < length) return std::nullopt;
    const std::string_view bytes = bytes_.substr(offset_, length);
    offset_ += length;
    return bytes;
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

}  // namespace perflab::prefetch
