// ClassFileBuilder: writes class files byte by byte for the scanner tests, so each test states exactly which
// constants the pool holds. Every AddX returns the constant's pool index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace perflab::prefetch::testing {

class ClassFileBuilder {
 public:
  std::uint16_t AddUtf8(std::string_view text) {
    std::string payload;
    AppendU2(&payload, static_cast<std::uint16_t>(text.size()));
    payload += text;
    return AddRaw(1, payload);
  }
  std::uint16_t AddClass(std::string_view internal_name) { return AddRaw(7, U2(AddUtf8(internal_name))); }
  std::uint16_t AddNameAndType(std::string_view name, std::string_view descriptor) {
    const std::uint16_t name_index = AddUtf8(name);
    const std::uint16_t descriptor_index = AddUtf8(descriptor);
    return AddRaw(12, U2(name_index) + U2(descriptor_index));
  }
  std::uint16_t AddInteger(std::uint32_t value) { return AddRaw(3, U4(value)); }
  std::uint16_t AddFloat(std::uint32_t bits) { return AddRaw(4, U4(bits)); }
  std::uint16_t AddLong(std::uint64_t value) { return AddRaw(5, U4(value >> 32) + U4(value), 2); }
  std::uint16_t AddDouble(std::uint64_t bits) { return AddRaw(6, U4(bits >> 32) + U4(bits), 2); }
  std::uint16_t AddString(std::uint16_t utf8_index) { return AddRaw(8, U2(utf8_index)); }
  std::uint16_t AddFieldref(std::uint16_t class_index, std::uint16_t name_and_type) {
    return AddRaw(9, U2(class_index) + U2(name_and_type));
  }
  std::uint16_t AddMethodref(std::uint16_t class_index, std::uint16_t name_and_type) {
    return AddRaw(10, U2(class_index) + U2(name_and_type));
  }
  std::uint16_t AddInterfaceMethodref(std::uint16_t class_index, std::uint16_t name_and_type) {
    return AddRaw(11, U2(class_index) + U2(name_and_type));
  }
  std::uint16_t AddMethodHandle(std::uint8_t kind, std::uint16_t reference) {
    return AddRaw(15, std::string(1, static_cast<char>(kind)) + U2(reference));
  }
  std::uint16_t AddMethodType(std::uint16_t descriptor_index) { return AddRaw(16, U2(descriptor_index)); }
  std::uint16_t AddInvokeDynamic(std::uint16_t bootstrap, std::uint16_t name_and_type) {
    return AddRaw(18, U2(bootstrap) + U2(name_and_type));
  }
  // Any tag with any payload; `slots` is how many pool indexes it takes.
  std::uint16_t AddRaw(std::uint8_t tag, const std::string& payload, int slots = 1) {
    const std::uint16_t index = next_index_;
    pool_ += static_cast<char>(tag);
    pool_ += payload;
    next_index_ = static_cast<std::uint16_t>(next_index_ + slots);
    return index;
  }

  // magic, version 52.0, the pool, then access flags, this/super class and empty interface, field, method
  // and attribute tables.
  std::string Build() const { return BuildWithCount(next_index_); }
  std::string BuildWithCount(std::uint16_t constant_pool_count) const {
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
