// Bytes a process writes once and then reads piecewise, kept in an unlinked temporary file instead of
// memory (a storage server keeps its shares on disk too): the uploader's hash-tree sections, which grow
// with the file (#46: 67 block trees were 562 MB at 10 GiB). Reads and writes name their offset (pread,
// pwrite), so forked processes share the file safely; it disappears when the last of them closes it.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "models/common/status.h"

namespace perflab::share {

class SpillFile {
 public:
  // A new empty file in the temporary directory (TMPDIR, else /tmp), already unlinked.
  static Result<std::unique_ptr<SpillFile>> create();
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  void write(uint64_t offset, std::string_view bytes);
  void read(uint64_t offset, uint64_t length, char* out) const;  // the range was written

 private:
  explicit SpillFile(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace perflab::share
