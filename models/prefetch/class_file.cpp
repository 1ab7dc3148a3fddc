// Constant-pool scan of a class file; see class_file.h for the rules it follows.
#include "models/prefetch/class_file.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "models/prefetch/byte_cursor.h"

namespace perflab::prefetch {
namespace {

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
  kInvokeDynamic = 18,
};

// Bytes following the tag for the constants whose content the scan skips; nullopt = unknown size.
std::optional<std::size_t> skipped_size(std::uint8_t tag) {
  switch (tag) {
    case kString:
    case kMethodType:
      return 2;
    case kMethodHandle:
      return 3;
    case kInteger:
    case kFloat:
    case kFieldref:
    case kMethodref:
    case kInterfaceMethodref:
    case kInvokeDynamic:
      return 4;
    case kLong:
    case kDouble:
      return 8;
    default:
      return std::nullopt;
  }
}

// A reference from one constant to a Utf8 constant, resolved once the whole pool has been read
// (constants may refer forward).
struct Utf8Reference {
  std::uint16_t from;
  std::uint16_t to;
};

std::string binary_name(std::string_view internal_name) {
  std::string name(internal_name);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

void add_class_constant_name(std::string_view name, std::vector<std::string>* names) {
  while (!name.empty() && name.front() == '[') name.remove_prefix(1);
  if (name.size() <= 1) return;  // a primitive array element type such as "[I"
  if (name.front() == 'L' && name.back() == ';') name = name.substr(1, name.size() - 2);
  if (!name.empty()) names->push_back(binary_name(name));
}

void add_descriptor_class_names(std::string_view descriptor, std::vector<std::string>* names) {
  std::size_t start = descriptor.find('L');
  while (start != std::string_view::npos) {
    const std::size_t end = descriptor.find(';', start + 1);
    if (end == std::string_view::npos) return;
    if (end > start + 1) names->push_back(binary_name(descriptor.substr(start + 1, end - start - 1)));
    start = descriptor.find('L', end + 1);
  }
}

std::string entry_description(std::uint32_t index, std::uint8_t tag, std::size_t offset) {
  return "constant pool entry " + std::to_string(index) + " (tag " + std::to_string(tag) + ") at byte " +
         std::to_string(offset);
}

}  // namespace

Result<ClassScan> scan_class_file(std::string_view class_file) {
  ByteCursor in(class_file);
  auto start = read_class_file_start(in);
  if (!start.ok()) return start.status();
  const std::uint16_t constant_pool_count = *start;

  std::vector<std::optional<std::string_view>> utf8(constant_pool_count);
  std::vector<Utf8Reference> class_names;
  std::vector<Utf8Reference> name_and_type_descriptors;
  for (std::uint32_t index = 1; index < constant_pool_count; ++index) {  // 32 bits: a Long may end at 65535
    const std::size_t entry_offset = in.offset();
    std::uint8_t tag = 0;
    if (!in.read_u1(&tag)) {
      return Status::Error("class file truncated at byte " + std::to_string(entry_offset) +
                           ": constant pool entry " + std::to_string(index) + " of " +
                           std::to_string(constant_pool_count - 1) + " is missing");
    }
    bool complete = true;
    switch (tag) {
      case kUtf8: {
        std::uint16_t length = 0;
        std::string_view text;
        complete = in.read_u2(&length) && in.read_bytes(length, &text);
        utf8[index] = text;
        break;
      }
      case kClass: {
        std::uint16_t name_index = 0;
        complete = in.read_u2(&name_index);
        class_names.push_back({static_cast<std::uint16_t>(index), name_index});
        break;
      }
      case kNameAndType: {
        std::uint16_t name_index = 0;
        std::uint16_t descriptor_index = 0;
        complete = in.read_u2(&name_index) && in.read_u2(&descriptor_index);
        name_and_type_descriptors.push_back({static_cast<std::uint16_t>(index), descriptor_index});
        break;
      }
      default: {
        const std::optional<std::size_t> size = skipped_size(tag);
        if (!size) return ClassScan{{}, tag};
        complete = in.skip(*size);
        if (tag == kLong || tag == kDouble) ++index;  // they take two slots
        break;
      }
    }
    if (!complete) {
      return Status::Error("class file truncated: " + entry_description(index, tag, entry_offset) +
                           " runs past the end (" + std::to_string(class_file.size()) + " bytes)");
    }
  }

  auto resolve = [&](const Utf8Reference& reference, const char* kind) -> Result<std::string_view> {
    if (reference.to == 0 || reference.to >= constant_pool_count || !utf8[reference.to]) {
      return Status::Error("malformed class file: " + std::string(kind) + " constant " +
                           std::to_string(reference.from) + " refers to entry " +
                           std::to_string(reference.to) + ", expected a Utf8 constant in 1.." +
                           std::to_string(constant_pool_count - 1));
    }
    return *utf8[reference.to];
  };

  ClassScan scan;
  for (const Utf8Reference& reference : class_names) {
    Result<std::string_view> name = resolve(reference, "Class");
    if (!name.ok()) return name.status();
    add_class_constant_name(*name, &scan.dependencies);
  }
  for (const Utf8Reference& reference : name_and_type_descriptors) {
    Result<std::string_view> descriptor = resolve(reference, "NameAndType");
    if (!descriptor.ok()) return descriptor.status();
    add_descriptor_class_names(*descriptor, &scan.dependencies);
  }
  std::sort(scan.dependencies.begin(), scan.dependencies.end());
  scan.dependencies.erase(std::unique(scan.dependencies.begin(), scan.dependencies.end()),
                          scan.dependencies.end());
  return scan;
}

}  // namespace perflab::prefetch
