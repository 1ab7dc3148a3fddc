// JarFile: one JAR of a classpath, opened with libzip, with an index of the classes it holds.
//
// Indexed: every "*.class" entry, as a binary name ("org.eclipse.jgit.lib.Repository") with its uncompressed
// size. Not indexed: `module-info.class` and everything under META-INF/ (including the multi-release
// META-INF/versions/N/ copies): the agent-side class loader of Remoting is a plain URLClassLoader view of the
// JAR's base entries, and none of these are classes anybody loads by name.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

struct zip;  // libzip's archive handle (zip_t)

namespace perflab::prefetch {

struct JarClassEntry {
  std::string binary_name;
  std::uint64_t zip_index = 0;
  std::uint64_t size_bytes = 0;  // uncompressed class-file size
};

class JarFile {
 public:
  // Errors name the path: missing file, not a zip archive, unreadable central directory.
  static Result<JarFile> Open(const std::string& path);

  const std::string& path() const { return path_; }
  std::uint64_t file_size_bytes() const { return contents_->size(); }
  // In the order of the zip's central directory; a name appears once (the first entry wins).
  const std::vector<JarClassEntry>& class_entries() const { return class_entries_; }

  // The class file bytes of one of this JAR's entries.
  Result<std::string> read(const JarClassEntry& entry) const;
  // Any entry by its name ("META-INF/MANIFEST.MF"); nullopt when the JAR has none.
  Result<std::optional<std::string>> read_entry(const std::string& name) const;

 private:
  struct ZipCloser {
    void operator()(zip* archive) const;
  };

  JarFile(std::string path, std::unique_ptr<std::string> contents, std::unique_ptr<zip, ZipCloser> archive);
  Status index_class_entries();

  std::string path_;
  // The whole file, read once: libzip then reads entries from memory instead of seeking and stat-ing the
  // file for every entry (three times faster to scan a classpath). Behind a pointer so it never moves.
  std::unique_ptr<std::string> contents_;
  std::unique_ptr<zip, ZipCloser> archive_;
  std::vector<JarClassEntry> class_entries_;
};

}  // namespace perflab::prefetch
