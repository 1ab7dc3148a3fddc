// SpillFile (see spill_file.h).
#include "models/share/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace perflab::share {

Result<std::unique_ptr<SpillFile>> SpillFile::create() {
  std::error_code error;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(error);
  if (error) return Status::Error("no temporary directory for the hash sections (" + error.message() + ")");
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    // A file system without O_TMPFILE (overlayfs before Linux 6.6): a named file, unlinked at once.
    std::string name = (dir / "perflab-share-XXXXXX").string();
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(name.c_str());
  }
  if (fd < 0) {
    return Status::Error("cannot create a temporary file in " + dir.string() + " for the hash sections (" +
                         std::strerror(errno) + ")");
  }
  return std::unique_ptr<SpillFile>(new SpillFile(fd));
}

SpillFile::~SpillFile() {
  ::close(fd_);
}

void SpillFile::write(uint64_t offset, std::string_view bytes) {
  const char* from = bytes.data();
  uint64_t length = bytes.size();
  while (length > 0) {
    ssize_t put = ::pwrite(fd_, from, length, static_cast<off_t>(offset));
    if (put <= 0)
      throw std::runtime_error(std::string("hash sections: write failed (") + std::strerror(errno) + ")");
    from += put;
    offset += static_cast<uint64_t>(put);
    length -= static_cast<uint64_t>(put);
  }
}

void SpillFile::read(uint64_t offset, uint64_t length, char* out) const {
  while (length > 0) {
    ssize_t got = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (got <= 0) throw std::runtime_error("hash sections: read past what was written");
    out += got;
    offset += static_cast<uint64_t>(got);
    length -= static_cast<uint64_t>(got);
  }
}

}  // namespace perflab::share
