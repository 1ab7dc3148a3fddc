// The upload's hash-tree sections as the storage servers keep them: on disk (SpillFile), not in memory,
// since they grow with the file (#46: 67 block trees were 562 MB at 10 GiB). Tree kCrypttextTree is the
// ciphertext hash tree, tree s share s's block hash tree, each (2P-1) * 32 bytes. A download reads their
// nodes level by level, left to right, a few at a time; each (tree, level) keeps the window of the
// section it read last, so those reads cost a pread per window, not one each.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/status.h"
#include "models/share/spill_file.h"

namespace perflab::share {

class TreeSections {
 public:
  static constexpr int kCrypttextTree = -1;

  // Sections for the ciphertext tree and `shares` block trees of a file of `num_segments` segments.
  static Result<std::unique_ptr<TreeSections>> create(uint64_t num_segments, int shares);
  uint64_t section_bytes() const { return section_bytes_; }

  void write(int tree, uint64_t offset, std::string_view bytes);
  // Bytes [offset, offset + length) of a tree's section, inside it, once all the sections are written.
  void read(int tree, uint64_t offset, uint64_t length, char* out) const;
  // The same, read as a whole, without the windows (no need to wait for the other sections).
  std::string read_uncached(int tree, uint64_t offset, uint64_t length) const;

 private:
  struct Window {
    uint64_t at = UINT64_MAX;  // section offset of its first byte
    std::string bytes;
  };
  TreeSections(std::unique_ptr<SpillFile> file, uint64_t section_bytes, int trees);
  uint64_t file_offset(int tree, uint64_t offset) const {
    return static_cast<uint64_t>(tree + 1) * section_bytes_ + offset;
  }

  std::unique_ptr<SpillFile> file_;
  uint64_t section_bytes_;
  size_t levels_;
  mutable std::vector<Window> windows_;  // by (tree + 1) * levels_ + level
};

}  // namespace perflab::share
