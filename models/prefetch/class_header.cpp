// Reader of a class file's this/super/interfaces; see class_header.h.
#include "models/prefetch/class_header.h"

#include <algorithm>
#include <cstdint>

#include "models/prefetch/constant_pool.h"

namespace perflab::prefetch {
namespace {

// The binary name of the Class constant `index`, or an error saying that `what` (this_class,
// super_class, an interface) is not a Class constant.
Result<std::string> class_name(const ConstantPool& pool, std::uint16_t index, const char* what) {
  if (index == 0 || index >= pool.count() || pool.tags[index] != kClass) {
    return Status::Error("malformed class file: " + std::string(what) + " is constant " +
                         std::to_string(index) + ", expected a Class constant in 1.." +
                         std::to_string(pool.count() - 1));
  }
  Result<std::string_view> name = pool.referenced_utf8(index, pool.name_index[index]);
  if (!name.ok()) return name.status();
  std::string binary(*name);
  std::replace(binary.begin(), binary.end(), '/', '.');
  return binary;
}

}  // namespace

Result<ClassHeader> read_class_header(std::string_view class_file) {
  ByteCursor in(class_file);
  Result<ConstantPool> pool = read_constant_pool(in, ConstantSizes::kJvms);
  if (!pool.ok()) return pool.status();
  if (const std::optional<UnsizedConstant> unsized = pool->unsized) {
    return Status::Error("malformed class file: constant pool entry " + std::to_string(unsized->index) +
                         " at byte " + std::to_string(unsized->offset) + " has tag " +
                         std::to_string(unsized->tag) + ", expected a tag of JVMS §4.4");
  }

  const bool has_access_flags = in.skip(2);
  const std::optional<std::uint16_t> this_class = in.read_u2();
  const std::optional<std::uint16_t> super_class = in.read_u2();
  const std::optional<std::uint16_t> interface_count = in.read_u2();
  if (!has_access_flags || !this_class || !super_class || !interface_count) {
    return Status::Error(
        "class file truncated after the constant pool, expected access_flags, this_class, "
        "super_class and interfaces_count");
  }
  ClassHeader header;
  Result<std::string> name = class_name(*pool, *this_class, "this_class");
  if (!name.ok()) return name.status();
  header.name = std::move(name).value();
  if (*super_class != 0) {
    Result<std::string> superclass = class_name(*pool, *super_class, "super_class");
    if (!superclass.ok()) return superclass.status();
    header.superclass = std::move(superclass).value();
  }
  for (std::uint16_t i = 0; i < *interface_count; ++i) {
    const std::optional<std::uint16_t> index = in.read_u2();
    if (!index) {
      return Status::Error("class file truncated in interfaces[" + std::to_string(i) + "] of " +
                           std::to_string(*interface_count));
    }
    Result<std::string> interface_name = class_name(*pool, *index, "an interface");
    if (!interface_name.ok()) return interface_name.status();
    header.interfaces.push_back(std::move(interface_name).value());
  }
  return header;
}

}  // namespace perflab::prefetch
