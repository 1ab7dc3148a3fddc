// Classpath: the JARs a class loader searches, in order, and the classes it can load from them.
// As in a Java class loader, when several JARs hold the same class name the first JAR on the classpath wins.
// Jenkins' controller answers the agent's class-loading RPCs from such a classpath.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/jar_file.h"

namespace perflab::prefetch {

// Where a loadable class lives: a JAR of the classpath and one of its entries.
struct ClassLocation {
  int jar = 0;
  std::size_t entry = 0;  // index into jar(jar).class_entries()
};

class Classpath {
 public:
  // Opens every JAR; the first that cannot be opened gives the error (naming its path).
  static Result<Classpath> Open(const std::vector<std::string>& jar_paths);

  int jar_count() const { return static_cast<int>(jars_.size()); }
  const JarFile& jar(int index) const { return jars_[index]; }

  // Every loadable class once, in classpath order: JAR by JAR, then in each JAR's entry order.
  const std::vector<ClassLocation>& classes() const { return classes_; }
  std::optional<ClassLocation> find(const std::string& binary_name) const;

  const JarClassEntry& entry(const ClassLocation& location) const {
    return jars_[location.jar].class_entries()[location.entry];
  }
  Result<std::string> read_class(const ClassLocation& location) const {
    return jars_[location.jar].read(entry(location));
  }

 private:
  std::vector<JarFile> jars_;
  std::vector<ClassLocation> classes_;
  std::unordered_map<std::string, std::size_t> class_index_;  // binary name -> position in classes_
};

}  // namespace perflab::prefetch
