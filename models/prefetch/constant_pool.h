// The constant pool of a class file (JVMS §4.4), read once for both of the prefetch model's class-file
// readers: Remoting's dependency scan (class_file.h) and the JVM's view of a class's supertypes
// (class_header.h).
//
// The walk reads the class-file start (magic, version, constant_pool_count) and then every entry, keeping
// what the two readers use: each entry's tag, the text of Utf8 constants, and the Utf8 entries that Class
// (name_index) and NameAndType (descriptor_index) constants point at. References are kept as indexes
// because constants may refer forward; `referenced_utf8` resolves them once the pool is read.
//
// The two readers differ in which constants they can size. Remoting's scanner predates Dynamic (17),
// Module (19) and Package (20) and stops there; the JVM sizes every tag of the specification. Either way
// the walk stops at a constant it cannot size and says which (`unsized`): the scanner then sends the class
// without prefetch, the header reader reports a malformed class file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/byte_cursor.h"

namespace perflab::prefetch {

enum ConstantTag : std::uint8_t {
  kUtf8 = 1,
  kInteger = 3,
  kFloat = 4,
  kLong = 5,
  kDouble = 6,
  kClass = 7,
  kString = 8,
  kFieldref = 9,
  kMethodref = 10,
  kInterfaceMethodref = 11,
  kNameAndType = 12,
  kMethodHandle = 15,
  kMethodType = 16,
  kDynamic = 17,
  kInvokeDynamic = 18,
  kModule = 19,
  kPackage = 20,
};

// Whose knowledge of constant sizes the walk uses.
enum class ConstantSizes {
  kRemoting,  // the tags Remoting's scanner knows: none of Dynamic, Module, Package
  kJvms,      // every tag of JVMS §4.4
};

// A constant the walk could not size; the entries before it were read.
struct UnsizedConstant {
  std::uint32_t index;
  std::uint8_t tag;
  std::size_t offset;  // of its tag byte in the class file
};

struct ConstantPool {
  std::vector<std::uint8_t> tags;         // by index; 0 at index 0 and in a Long's or Double's second slot
  std::vector<std::string_view> utf8;     // by index: a Utf8 constant's bytes, in the class file
  std::vector<std::uint16_t> name_index;  // by index: a Class constant's name_index
  std::vector<std::uint16_t> descriptor_index;  // by index: a NameAndType constant's descriptor_index
  std::optional<UnsizedConstant> unsized;       // where the walk stopped early, if it did

  std::size_t count() const { return tags.size(); }  // constant_pool_count

  // The text of the Utf8 constant that constant `from` (a Class or a NameAndType) refers to as `to`, or an
  // error when `to` is not a Utf8 constant.
  Result<std::string_view> referenced_utf8(std::uint32_t from, std::uint16_t to) const;
};

// Reads a class file from its first byte to the end of its constant pool, leaving `in` just after the pool
// (or after the unsized constant's tag). Errors say what is malformed and where: bad magic, truncation.
Result<ConstantPool> read_constant_pool(ByteCursor& in, ConstantSizes sizes);

}  // namespace perflab::prefetch
