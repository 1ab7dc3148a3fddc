// Writer and Reader: the byte layout of a study's message payloads (its protocol.cpp or real_protocol.cpp).
// Integers travel in the host's byte order: both ends are processes of one machine. A Reader answers false
// instead of reading past the end, so a malformed payload is an error, never a crash.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "models/common/status.h"

namespace perflab::real {

class Writer {
 public:
  template <typename T>
  Writer& put(T value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
    return *this;
  }
  Writer& put_bytes(const std::string& bytes) {
    put(static_cast<std::uint64_t>(bytes.size()));
    out_ += bytes;
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  template <typename T>
  bool get(T& value) {
    if (in_.size() - offset_ < sizeof value) return false;
    std::memcpy(&value, in_.data() + offset_, sizeof value);
    offset_ += sizeof value;
    return true;
  }
  bool get_bytes(std::string& bytes) {
    std::uint64_t size = 0;
    if (!get(size) || in_.size() - offset_ < size) return false;
    bytes.assign(in_, offset_, size);
    offset_ += size;
    return true;
  }
  bool done() const { return offset_ == in_.size(); }

 private:
  const std::string& in_;
  std::size_t offset_ = 0;
};

// The error for a payload a Reader could not read as `what`.
inline Status malformed(const char* what) {
  return Status::Error(std::string("malformed ") + what + " message from the peer");
}

// A payload that is one 32-bit number (an index, a server's number).
inline std::string encode_number(std::uint32_t number) {
  return Writer().put(number).take();
}
inline Result<std::uint32_t> decode_number(const std::string& payload, const char* what) {
  Reader r(payload);
  std::uint32_t number = 0;
  if (!r.get(number) || !r.done()) return malformed(what);
  return number;
}

}  // namespace perflab::real
