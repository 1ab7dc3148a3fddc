// Classpath: opens the JARs in order and indexes the classes they can serve (first JAR wins).
#include "models/prefetch/classpath.h"

#include <utility>

namespace perflab::prefetch {

Result<Classpath> Classpath::Open(const std::vector<std::string>& jar_paths) {
  Classpath classpath;
  for (const std::string& path : jar_paths) {
    Result<JarFile> jar = JarFile::Open(path);
    if (!jar.ok()) return jar.status();
    const int jar_index = classpath.jar_count();
    const std::vector<JarClassEntry>& entries = jar->class_entries();
    for (std::size_t entry = 0; entry < entries.size(); ++entry) {
      const bool first =
          classpath.class_index_.emplace(entries[entry].binary_name, classpath.classes_.size()).second;
      if (first) classpath.classes_.push_back({jar_index, entry});
    }
    classpath.jars_.push_back(std::move(jar).value());
  }
  return classpath;
}

std::optional<ClassLocation> Classpath::find(const std::string& binary_name) const {
  auto found = class_index_.find(binary_name);
  if (found == class_index_.end()) return std::nullopt;
  return classes_[found->second];
}

}  // namespace perflab::prefetch
