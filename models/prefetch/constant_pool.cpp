// The constant-pool walk; see constant_pool.h.
#include "models/prefetch/constant_pool.h"

#include <string>

namespace perflab::prefetch {
namespace {

// Bytes after the tag of every constant but Utf8 (whose length is in the entry), for the tags `sizes`
// knows; nullopt for the others.
std::optional<std::size_t> fixed_size(std::uint8_t tag, ConstantSizes sizes) {
  const bool jvms = sizes == ConstantSizes::kJvms;
  switch (tag) {
    case kClass:
    case kString:
    case kMethodType:
      return 2;
    case kModule:
    case kPackage:
      return jvms ? std::optional<std::size_t>(2) : std::nullopt;
    case kMethodHandle:
      return 3;
    case kInteger:
    case kFloat:
    case kFieldref:
    case kMethodref:
    case kInterfaceMethodref:
    case kNameAndType:
    case kInvokeDynamic:
      return 4;
    case kDynamic:
      return jvms ? std::optional<std::size_t>(4) : std::nullopt;
    case kLong:
    case kDouble:
      return 8;
    default:
      return std::nullopt;
  }
}

// The start every class file shares (JVMS §4.1): magic, minor and major version, constant_pool_count.
Result<std::uint16_t> read_class_file_start(ByteCursor& in) {
  constexpr std::uint32_t kClassFileMagic = 0xCAFEBABE;
  const std::optional<std::uint32_t> magic = in.read_u4();
  const bool has_version = in.skip(4);  // minor_version, major_version
  const std::optional<std::uint16_t> constant_pool_count = in.read_u2();
  if (!magic || !has_version || !constant_pool_count) {
    return Status::Error("class file truncated: " + std::to_string(in.offset() + in.remaining()) +
                         " bytes, expected at least 10 (magic, version, constant_pool_count)");
  }
  if (*magic != kClassFileMagic) return Status::Error("not a class file: bad magic, expected 0xCAFEBABE");
  if (*constant_pool_count == 0) {
    return Status::Error("malformed class file: constant_pool_count is 0, expected at least 1");
  }
  return *constant_pool_count;
}

}  // namespace

Result<std::string_view> ConstantPool::referenced_utf8(std::uint32_t from, std::uint16_t to) const {
  if (to == 0 || to >= count() || tags[to] != kUtf8) {
    const char* kind = tags[from] == kClass ? "Class" : "NameAndType";
    return Status::Error("malformed class file: " + std::string(kind) + " constant " + std::to_string(from) +
                         " refers to entry " + std::to_string(to) + ", expected a Utf8 constant in 1.." +
                         std::to_string(count() - 1));
  }
  return utf8[to];
}

Result<ConstantPool> read_constant_pool(ByteCursor& in, ConstantSizes sizes) {
  Result<std::uint16_t> count = read_class_file_start(in);
  if (!count.ok()) return count.status();
  ConstantPool pool;
  pool.tags.assign(*count, 0);
  pool.utf8.assign(*count, {});
  pool.name_index.assign(*count, 0);
  pool.descriptor_index.assign(*count, 0);

  for (std::uint32_t index = 1; index < *count; ++index) {  // 32 bits: a Long may end at 65535
    const std::size_t offset = in.offset();
    const std::optional<std::uint8_t> tag = in.read_u1();
    if (!tag) {
      return Status::Error("class file truncated at byte " + std::to_string(offset) +
                           ": constant pool entry " + std::to_string(index) + " of " +
                           std::to_string(*count - 1) + " is missing");
    }
    bool complete = false;
    switch (*tag) {
      case kUtf8: {
        const std::optional<std::uint16_t> length = in.read_u2();
        const std::optional<std::string_view> text = length ? in.read_bytes(*length) : std::nullopt;
        complete = text.has_value();
        pool.utf8[index] = text.value_or(std::string_view());
        break;
      }
      case kClass: {
        const std::optional<std::uint16_t> name_index = in.read_u2();
        complete = name_index.has_value();
        pool.name_index[index] = name_index.value_or(0);
        break;
      }
      case kNameAndType: {
        const bool has_name_index = in.skip(2);
        const std::optional<std::uint16_t> descriptor_index = has_name_index ? in.read_u2() : std::nullopt;
        complete = descriptor_index.has_value();
        pool.descriptor_index[index] = descriptor_index.value_or(0);
        break;
      }
      default: {
        const std::optional<std::size_t> size = fixed_size(*tag, sizes);
        if (!size) {
          pool.unsized = UnsizedConstant{index, *tag, offset};
          return pool;
        }
        complete = in.skip(*size);
        break;
      }
    }
    if (!complete) {
      return Status::Error("class file truncated: constant pool entry " + std::to_string(index) + " (tag " +
                           std::to_string(*tag) + ") at byte " + std::to_string(offset) +
                           " runs past the end (" + std::to_string(in.offset() + in.remaining()) + " bytes)");
    }
    pool.tags[index] = *tag;
    if (*tag == kLong || *tag == kDouble) ++index;  // they take two slots
  }
  return pool;
}

}  // namespace perflab::prefetch
