// Constant-pool scan of a class file; see class_file.h for the rules it follows.
#include "models/prefetch/class_file.h"

#include <algorithm>
#include <cstdint>

#include "models/prefetch/constant_pool.h"

namespace perflab::prefetch {
namespace {

std::string binary_name(std::string_view internal_name) {
  std::string name(internal_name);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

void add_class_constant_name(std::string_view name, std::vector<std::string>& names) {
  while (!name.empty() && name.front() == '[') name.remove_prefix(1);
  if (name.size() <= 1) return;  // a primitive array element type such as "[I"
  if (name.front() == 'L' && name.back() == ';') name = name.substr(1, name.size() - 2);
  if (!name.empty()) names.push_back(binary_name(name));
}

void add_descriptor_class_names(std::string_view descriptor, std::vector<std::string>& names) {
  std::size_t start = descriptor.find('L');
  while (start != std::string_view::npos) {
    const std::size_t end = descriptor.find(';', start + 1);
    if (end == std::string_view::npos) return;
    if (end > start + 1) names.push_back(binary_name(descriptor.substr(start + 1, end - start - 1)));
    start = descriptor.find('L', end + 1);
  }
}

}  // namespace

Result<ClassScan> scan_class_file(std::string_view class_file) {
  ByteCursor in(class_file);
  Result<ConstantPool> pool = read_constant_pool(in, ConstantSizes::kRemoting);
  if (!pool.ok()) return pool.status();
  if (pool->unsized) return ClassScan{{}, pool->unsized->tag};

  ClassScan scan;
  for (std::uint32_t index = 1; index < pool->count(); ++index) {
    if (pool->tags[index] != kClass) continue;
    Result<std::string_view> name = pool->referenced_utf8(index, pool->name_index[index]);
    if (!name.ok()) return name.status();
    add_class_constant_name(*name, scan.dependencies);
  }
  for (std::uint32_t index = 1; index < pool->count(); ++index) {
    if (pool->tags[index] != kNameAndType) continue;
    Result<std::string_view> descriptor = pool->referenced_utf8(index, pool->descriptor_index[index]);
    if (!descriptor.ok()) return descriptor.status();
    add_descriptor_class_names(*descriptor, scan.dependencies);
  }
  std::sort(scan.dependencies.begin(), scan.dependencies.end());
  scan.dependencies.erase(std::unique(scan.dependencies.begin(), scan.dependencies.end()),
                          scan.dependencies.end());
  return scan;
}

}  // namespace perflab::prefetch
