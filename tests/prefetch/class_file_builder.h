// ClassFileBuilder: writes class files byte by byte for the scanner tests, so each test states exactly which
// constants the pool holds. Every AddX returns the constant's pool index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace perflab::prefetch::testing {

class ClassFileBuilder {
 public:
  std::uint16_t add_utf8(std::string_view text) {
    std::string payload;
    AppendU2(&payload, static_cast<std::uint16_t>(text.size()));
    payload += text;
    return add_raw(1, payload);
  }
  std::uint16_t add_class(std::string_view internal_name) { return add_raw(7, U2(add_utf8(internal_name))); }
  std::uint16_t add_name_and_type(std::string_view name, std::string_view descriptor) {
    const std::uint16_t name_index = add_utf8(name);
    const std::uint16_t descriptor_index = add_utf8(descriptor);
    return add_raw(12, U2(name_index) + U2(descriptor_index));
  }
  std::uint16_t add_integer(std::uint32_t value) { return add_raw(3, U4(value)); }
  std::uint16_t add_float(std::uint32_t bits) { return add_raw(4, U4(bits)); }
  std::uint16_t add_long(std::uint64_t value) { return add_raw(5, U4(value >> 32) + U4(value), 2); }
  std::uint16_t add_double(std::uint64_t bits) { return add_raw(6, U4(bits >> 32) + U4(bits), 2); }
  std::uint16_t add_string(std::uint16_t utf8_index) { return add_raw(8, U2(utf8_index)); }
  std::uint16_t add_fieldref(std::uint16_t class_index, std::uint16_t name_and_type) {
    return add_raw(9, U2(class_index) + U2(name_and_type));
  }
  std::uint16_t add_methodref(std::uint16_t class_index, std::uint16_t name_and_type) {
    return add_raw(10, U2(class_index) + U2(name_and_type));
  }
  std::uint16_t add_interface_methodref(std::uint16_t class_index, std::uint16_t name_and_type) {
    return add_raw(11, U2(class_index) + U2(name_and_type));
  }
  std::uint16_t add_method_handle(std::uint8_t kind, std::uint16_t reference) {
    return add_raw(15, std::string(1, static_cast<char>(kind)) + U2(reference));
  }
  std::uint16_t add_method_type(std::uint16_t descriptor_index) { return add_raw(16, U2(descriptor_index)); }
  std::uint16_t add_invoke_dynamic(std::uint16_t bootstrap, std::uint16_t name_and_type) {
    return add_raw(18, U2(bootstrap) + U2(name_and_type));
  }
  // Any tag with any payload; `slots` is how many pool indexes it takes.
  std::uint16_t add_raw(std::uint8_t tag, const std::string& payload, int slots = 1) {
    const std::uint16_t index = next_index_;
    pool_ += static_cast<char>(tag);
    pool_ += payload;
    next_index_ = static_cast<std::uint16_t>(next_index_ + slots);
    return index;
  }

  // magic, version 52.0, the pool, then access flags, this/super class and empty interface, field, method
  // and attribute tables.
  std::string build() const { return build_with_count(next_index_); }
  std::string build_with_count(std::uint16_t constant_pool_count) const {
    return U4(0xCAFEBABE) + U2(0) + U2(52) + U2(constant_pool_count) + pool_ + U2(0x21) + U2(0) + U2(0) +
           U2(0) + U2(0) + U2(0) + U2(0);
  }
  // Byte offset just past the constant pool in Build()'s output.
  std::size_t pool_end() const { return 10 + pool_.size(); }

  static std::string U2(std::uint16_t value) {
    std::string bytes;
    AppendU2(&bytes, value);
    return bytes;
  }
  static std::string U4(std::uint64_t value) {
    return U2(static_cast<std::uint16_t>(value >> 16)) + U2(static_cast<std::uint16_t>(value));
  }

 private:
  static void AppendU2(std::string* bytes, std::uint16_t value) {
    *bytes += static_cast<char>(value >> 8);
    *bytes += static_cast<char>(value & 0xFF);
  }

  std::string pool_;
  std::uint16_t next_index_ = 1;
};

}  // namespace perflab::prefetch::testing
