// Bounded-time fuzzing of the constant-pool scan: seeded random mutations of real JGit class files must
// give a result or an error, never a crash or an out-of-bounds read (the ASan build checks the latter).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/prefetch/class_file.h"
#include "tests/prefetch/real_jgit.h"

namespace perflab::prefetch {
namespace {

constexpr int kMutants = 20000;
constexpr int kSeedClasses = 64;

std::vector<std::string> seed_class_files() {
  Result<std::vector<std::string>> paths = testing::real_classpath_paths();
  EXPECT_TRUE(paths.ok()) << paths.status().message();
  if (!paths.ok()) return {};
  std::string jgit_jar = paths->front();
  for (const std::string& path : *paths) {
    if (path.size() >= 21 && path.substr(path.size() - 21) == "/org.eclipse.jgit.jar") jgit_jar = path;
  }
  Result<JarFile> jar = JarFile::Open(jgit_jar);
  EXPECT_TRUE(jar.ok()) << jar.status().message();
  if (!jar.ok()) return {};
  std::vector<std::string> class_files;
  const std::vector<JarClassEntry>& entries = jar->class_entries();
  const std::size_t step = std::max<std::size_t>(1, entries.size() / kSeedClasses);
  for (std::size_t i = 0; i < entries.size() && class_files.size() < kSeedClasses; i += step) {
    Result<std::string> bytes = jar->read(entries[i]);
    EXPECT_TRUE(bytes.ok()) << bytes.status().message();
    if (bytes.ok()) class_files.push_back(std::move(bytes).value());
  }
  return class_files;
}

std::string mutate(std::string bytes, std::mt19937_64& random) {
  auto position = [&](std::size_t size) {
    return std::uniform_int_distribution<std::size_t>(0, size)(random);
  };
  const int mutations = std::uniform_int_distribution<int>(1, 4)(random);
  for (int m = 0; m < mutations; ++m) {
    switch (std::uniform_int_distribution<int>(0, 4)(random)) {
      case 0:  // flip a bit
        if (!bytes.empty()) bytes[position(bytes.size() - 1)] ^= static_cast<char>(1 << (random() % 8));
        break;
      case 1:  // truncate
        bytes.resize(position(bytes.size()));
        break;
      case 2:  // insert random bytes
        bytes.insert(position(bytes.size()), std::string(1 + random() % 8, static_cast<char>(random())));
        break;
      case 3:  // overwrite a u2 with an extreme value, as a count, length or index
        if (bytes.size() >= 2) {
          const std::size_t at = position(bytes.size() - 2);
          const std::uint16_t value = random() % 2 ? 0xFFFF : static_cast<std::uint16_t>(random() % 4);
          bytes[at] = static_cast<char>(value >> 8);
          bytes[at + 1] = static_cast<char>(value);
        }
        break;
      case 4:  // erase a range
        if (!bytes.empty()) {
          const std::size_t at = position(bytes.size() - 1);
          bytes.erase(at, 1 + random() % 16);
        }
        break;
    }
  }
  return bytes;
}

TEST(PrefetchClassFileFuzz, MutatedRealClassFilesNeverCrashTheScan) {
  const std::vector<std::string> seeds = seed_class_files();
  ASSERT_FALSE(seeds.empty());
  std::mt19937_64 random(20240721);
  int scanned = 0, unsupported = 0, errors = 0;
  for (int i = 0; i < kMutants; ++i) {
    const std::string mutant = mutate(seeds[i % seeds.size()], random);
    const Result<ClassScan> scan = scan_class_file(mutant);
    if (!scan.ok()) {
      ++errors;
      EXPECT_FALSE(scan.status().message().empty());
    } else if (!scan->prefetchable()) {
      ++unsupported;
    } else {
      ++scanned;
      EXPECT_TRUE(std::is_sorted(scan->dependencies.begin(), scan->dependencies.end()));
      EXPECT_TRUE(std::adjacent_find(scan->dependencies.begin(), scan->dependencies.end()) ==
                  scan->dependencies.end());
      for (const std::string& name : scan->dependencies) EXPECT_FALSE(name.empty());
    }
  }
  std::printf("[ fuzz     ] %d mutants: %d scanned, %d unsupported constant, %d errors\n", kMutants, scanned,
              unsupported, errors);
  // The mutations must reach every outcome, or the fuzzing is not exercising the scanner.
  EXPECT_GT(scanned, kMutants / 20);
  EXPECT_GT(unsupported, kMutants / 20);
  EXPECT_GT(errors, kMutants / 20);
}

}  // namespace
}  // namespace perflab::prefetch
