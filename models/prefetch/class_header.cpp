// Reader of a class file's this/super/interfaces; see class_header.h.
#include "models/prefetch/class_header.h"

#include <algorithm>
#include <cstdint>

#include "models/prefetch/byte_cursor.h"

namespace perflab::prefetch {
namespace {

constexpr std::uint8_t kUtf8 = 1;
constexpr std::uint8_t kClass = 7;
constexpr std::uint8_t kLong = 5;
constexpr std::uint8_t kDouble = 6;

// Bytes after the tag of each constant other than Utf8 (JVMS §4.4); nullopt for a tag the JVM rejects.
std::optional<std::size_t> constant_size(std::uint8_t tag) {
  switch (tag) {
    case kClass:
    case 8:   // String
    case 16:  // MethodType
    case 19:  // Module
    case 20:  // Package
      return 2;
    case 15:  // MethodHandle
      return 3;
    case 3:   // Integer
    case 4:   // Float
    case 9:   // Fieldref
    case 10:  // Methodref
    case 11:  // InterfaceMethodref
    case 12:  // NameAndType
    case 17:  // Dynamic
    case 18:  // InvokeDynamic
      return 4;
    case kLong:
    case kDouble:
      return 8;
    default:
      return std::nullopt;
  }
}

struct ConstantPool {
  std::vector<std::uint8_t> tags;
  std::vector<std::string_view> utf8;           // by index, for Utf8 constants
  std::vector<std::uint16_t> class_name_index;  // by index, for Class constants

  // The binary name of Class constant `index`, or an error naming `what` refers to it.
  Result<std::string> class_name(std::uint16_t index, const char* what) const {
    if (index == 0 || index >= tags.size() || tags[index] != kClass) {
      return Status::Error("malformed class file: " + std::string(what) + " is constant " +
                           std::to_string(index) + ", expected a Class constant in 1.." +
                           std::to_string(tags.size() - 1));
    }
    const std::uint16_t name = class_name_index[index];
    if (name == 0 || name >= tags.size() || tags[name] != kUtf8) {
      return Status::Error("malformed class file: Class constant " + std::to_string(index) +
                           " names constant " + std::to_string(name) + ", expected a Utf8 constant");
    }
    std::string binary(utf8[name]);
    std::replace(binary.begin(), binary.end(), '/', '.');
    return binary;
  }
};

Result<ConstantPool> read_constant_pool(ByteCursor& in, std::uint16_t count) {
  ConstantPool pool;
  pool.tags.assign(count, 0);
  pool.utf8.assign(count, {});
  pool.class_name_index.assign(count, 0);
  for (std::uint32_t index = 1; index < count; ++index) {
    const std::size_t offset = in.offset();
    std::uint8_t tag = 0;
    bool complete = in.read_u1(&tag);
    if (complete && tag == kUtf8) {
      std::uint16_t length = 0;
      complete = in.read_u2(&length) && in.read_bytes(length, &pool.utf8[index]);
    } else if (complete && tag == kClass) {
      complete = in.read_u2(&pool.class_name_index[index]);
    } else if (complete) {
      const std::optional<std::size_t> size = constant_size(tag);
      if (!size) {
        return Status::Error("malformed class file: constant pool entry " + std::to_string(index) +
                             " at byte " + std::to_string(offset) + " has tag " + std::to_string(tag) +
                             ", expected a tag of JVMS §4.4");
      }
      complete = in.skip(*size);
    }
    if (!complete) {
      return Status::Error("class file truncated in constant pool entry " + std::to_string(index) +
                           " at byte " + std::to_string(offset));
    }
    pool.tags[index] = tag;
    if (tag == kLong || tag == kDouble) ++index;  // they take two slots
  }
  return pool;
}

}  // namespace

Result<ClassHeader> read_class_header(std::string_view class_file) {
  ByteCursor in(class_file);
  auto start = read_class_file_start(in);
  if (!start.ok()) return start.status();
  const std::uint16_t count = *start;
  Result<ConstantPool> pool = read_constant_pool(in, count);
  if (!pool.ok()) return pool.status();

  std::uint16_t this_class = 0;
  std::uint16_t super_class = 0;
  std::uint16_t interface_count = 0;
  if (!in.skip(2) || !in.read_u2(&this_class) || !in.read_u2(&super_class) || !in.read_u2(&interface_count)) {
    return Status::Error(
        "class file truncated after the constant pool, expected access_flags, this_class, "
        "super_class and interfaces_count");
  }
  ClassHeader header;
  Result<std::string> name = pool->class_name(this_class, "this_class");
  if (!name.ok()) return name.status();
  header.name = std::move(name).value();
  if (super_class != 0) {
    Result<std::string> superclass = pool->class_name(super_class, "super_class");
    if (!superclass.ok()) return superclass.status();
    header.superclass = std::move(superclass).value();
  }
  for (std::uint16_t i = 0; i < interface_count; ++i) {
    std::uint16_t index = 0;
    if (!in.read_u2(&index)) {
      return Status::Error("class file truncated in interfaces[" + std::to_string(i) + "] of " +
                           std::to_string(interface_count));
    }
    Result<std::string> interface_name = pool->class_name(index, "an interface");
    if (!interface_name.ok()) return interface_name.status();
    header.interfaces.push_back(std::move(interface_name).value());
  }
  return header;
}

}  // namespace perflab::prefetch
