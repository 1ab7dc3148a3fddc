// TreeSections (see tree_sections.h).
#include "models/share/tree_sections.h"

#include <algorithm>
#include <cstring>

#include "models/share/hash_tree.h"
#include "models/share/hashes.h"
#include "models/share/layout.h"

namespace perflab::share {
namespace {

constexpr uint64_t kWindowBytes = 4096;  // 128 nodes

size_t level_of(uint64_t node) {
  size_t level = 0;
  for (uint64_t n = node + 1; n > 1; n /= 2) ++level;
  return level;
}

}  // namespace

Result<std::unique_ptr<TreeSections>> TreeSections::create(uint64_t num_segments, int shares) {
  auto file = SpillFile::create();
  if (!file.ok()) return file.status();
  return std::unique_ptr<TreeSections>(
      new TreeSections(std::move(file).value(), hash_tree_bytes(num_segments), shares + 1));
}

TreeSections::TreeSections(std::unique_ptr<SpillFile> file, uint64_t section_bytes, int trees)
    : file_(std::move(file)),
      section_bytes_(section_bytes),
      levels_(level_of(section_bytes / kHashSize - 1) + 1),
      windows_(static_cast<size_t>(trees) * levels_) {}

void TreeSections::write(int tree, uint64_t offset, std::string_view bytes) {
  file_->write(file_offset(tree, offset), bytes);
  for (size_t level = 0; level < levels_; ++level)
    windows_[static_cast<size_t>(tree + 1) * levels_ + level].at = UINT64_MAX;
}

void TreeSections::read(int tree, uint64_t offset, uint64_t length, char* out) const {
  const uint64_t at = offset / kWindowBytes * kWindowBytes;
  const size_t level = level_of(offset / kHashSize);
  if (length == 0 || offset + length > at + kWindowBytes ||
      level != level_of((offset + length - 1) / kHashSize)) {
    return file_->read(file_offset(tree, offset), length, out);
  }
  Window& window = windows_[static_cast<size_t>(tree + 1) * levels_ + level];
  if (window.at != at) {
    window.bytes.resize(std::min(kWindowBytes, section_bytes_ - at));
    file_->read(file_offset(tree, at), window.bytes.size(), window.bytes.data());
    window.at = at;
  }
  std::memcpy(out, window.bytes.data() + (offset - at), length);
}

std::string TreeSections::read_uncached(int tree, uint64_t offset, uint64_t length) const {
  std::string out(length, '\0');
  file_->read(file_offset(tree, offset), length, out.data());
  return out;
}

}  // namespace perflab::share
