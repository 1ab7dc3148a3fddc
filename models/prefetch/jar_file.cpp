// JarFile over libzip; see jar_file.h for what is indexed.
#include "models/prefetch/jar_file.h"

#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

namespace perflab::prefetch {
namespace {

// Larger "class files" are taken to be corrupt metadata rather than allocated.
constexpr std::uint64_t kMaxClassFileBytes = 64 << 20;

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_indexed_class_entry(std::string_view entry_name) {
  if (!ends_with(entry_name, ".class") || entry_name.rfind("META-INF/", 0) == 0) return false;
  return entry_name != "module-info.class" && !ends_with(entry_name, "/module-info.class");
}

std::string binary_name_of_entry(std::string_view entry_name) {
  std::string name(entry_name.substr(0, entry_name.size() - std::string_view(".class").size()));
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

}  // namespace

void JarFile::ZipCloser::operator()(zip* archive) const {
  zip_discard(archive);
}

JarFile::JarFile(std::string path, std::unique_ptr<std::string> contents,
                 std::unique_ptr<zip, ZipCloser> archive)
    : path_(std::move(path)), contents_(std::move(contents)), archive_(std::move(archive)) {}

Result<JarFile> JarFile::Open(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Status::Error(path + ": cannot read JAR: " + error.message());
  auto contents = std::make_unique<std::string>(size, '\0');
  std::ifstream file(path, std::ios::binary);
  if (!file.read(contents->data(), static_cast<std::streamsize>(size))) {
    return Status::Error(path + ": cannot read JAR: " + std::strerror(errno));
  }

  zip_error_t zip_error;
  zip_error_init(&zip_error);
  zip_source_t* source = zip_source_buffer_create(contents->data(), contents->size(), 0, &zip_error);
  zip* archive = source == nullptr ? nullptr : zip_open_from_source(source, ZIP_RDONLY, &zip_error);
  if (archive == nullptr) {
    if (source != nullptr) zip_source_free(source);
    const std::string reason = zip_error_strerror(&zip_error);
    zip_error_fini(&zip_error);
    return Status::Error(path + ": cannot open as a JAR (zip archive): " + reason);
  }
  zip_error_fini(&zip_error);
  JarFile jar(path, std::move(contents), std::unique_ptr<zip, ZipCloser>(archive));
  if (Status indexed = jar.index_class_entries(); !indexed.ok()) return indexed;
  return jar;
}

Status JarFile::index_class_entries() {
  const zip_int64_t entry_count = zip_get_num_entries(archive_.get(), 0);
  if (entry_count < 0) return Status::Error(path_ + ": cannot list the zip entries");
  std::unordered_set<std::string> seen;
  for (zip_uint64_t index = 0; index < static_cast<zip_uint64_t>(entry_count); ++index) {
    zip_stat_t stat;
    if (zip_stat_index(archive_.get(), index, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_NAME) ||
        !(stat.valid & ZIP_STAT_SIZE)) {
      return Status::Error(path_ + ": zip entry " + std::to_string(index) + " has no readable name or size");
    }
    if (!is_indexed_class_entry(stat.name)) continue;
    std::string binary_name = binary_name_of_entry(stat.name);
    if (!seen.insert(binary_name).second) continue;
    class_entries_.push_back({std::move(binary_name), index, stat.size});
  }
  return Status::OK();
}

Result<std::optional<std::string>> JarFile::read_entry(const std::string& name) const {
  const zip_int64_t index = zip_name_locate(archive_.get(), name.c_str(), 0);
  if (index < 0) return std::optional<std::string>();
  zip_stat_t stat;
  if (zip_stat_index(archive_.get(), static_cast<zip_uint64_t>(index), 0, &stat) != 0)
    return Status::Error(path_ + ": " + name +
                         ": cannot read the zip entry: " + zip_strerror(archive_.get()));
  auto bytes = read({name, static_cast<std::uint64_t>(index), stat.size});
  if (!bytes.ok()) return bytes.status();
  return std::optional<std::string>(std::move(bytes).value());
}

Result<std::string> JarFile::read(const JarClassEntry& entry) const {
  const std::string where = path_ + ": " + entry.binary_name + ": ";
  if (entry.size_bytes > kMaxClassFileBytes) {
    return Status::Error(where + "class file of " + std::to_string(entry.size_bytes) +
                         " bytes, expected at most " + std::to_string(kMaxClassFileBytes));
  }
  std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file(zip_fopen_index(archive_.get(), entry.zip_index, 0),
                                                         &zip_fclose);
  if (!file) return Status::Error(where + "cannot open the zip entry: " + zip_strerror(archive_.get()));
  std::string bytes(entry.size_bytes, '\0');
  std::uint64_t done = 0;
  while (done < entry.size_bytes) {
    const zip_int64_t read = zip_fread(file.get(), bytes.data() + done, entry.size_bytes - done);
    if (read < 0)
      return Status::Error(where + "cannot inflate the zip entry: " + zip_file_strerror(file.get()));
    if (read == 0) break;
    done += static_cast<std::uint64_t>(read);
  }
  if (done != entry.size_bytes) {
    return Status::Error(where + "zip entry ended after " + std::to_string(done) + " bytes, expected " +
                         std::to_string(entry.size_bytes));
  }
  return bytes;
}

}  // namespace perflab::prefetch
