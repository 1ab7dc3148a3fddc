// JarFile, Classpath and the classpath file: indexing real and hand-made JARs, first JAR wins, errors that
// name the path.
#include "models/prefetch/jar_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/prefetch/classpath.h"
#include "models/prefetch/classpath_file.h"
#include "tests/prefetch/real_jgit.h"
#include "tests/prefetch/zip_writer.h"

namespace perflab::prefetch {
namespace {

using testing::TempDirectory;
using testing::write_zip;

std::string real_jar(const std::string& file_name) {
  Result<std::vector<std::string>> paths = testing::real_classpath_paths();
  EXPECT_TRUE(paths.ok()) << paths.status().message();
  if (!paths.ok()) return "";
  for (const std::string& path : *paths) {
    if (std::filesystem::path(path).filename() == file_name) return path;
  }
  ADD_FAILURE() << file_name << " is not on the committed classpath";
  return "";
}

const JarClassEntry* find_entry(const JarFile& jar, const std::string& name) {
  for (const JarClassEntry& entry : jar.class_entries()) {
    if (entry.binary_name == name) return &entry;
  }
  return nullptr;
}

TEST(PrefetchJarFile, IndexesAndReadsTheRealJGitJar) {
  const std::string path = real_jar("org.eclipse.jgit.jar");
  Result<JarFile> jar = JarFile::Open(path);
  ASSERT_TRUE(jar.ok()) << jar.status().message();
  EXPECT_EQ(jar->path(), path);
  EXPECT_EQ(jar->file_size_bytes(), std::filesystem::file_size(path));
  EXPECT_GT(jar->class_entries().size(), 1000u);

  const JarClassEntry* repository = find_entry(*jar, "org.eclipse.jgit.lib.Repository");
  ASSERT_NE(repository, nullptr);
  Result<std::string> bytes = jar->read(*repository);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(bytes->size(), repository->size_bytes);
  EXPECT_EQ(bytes->substr(0, 4), "\xCA\xFE\xBA\xBE");
  EXPECT_NE(find_entry(*jar, "org.eclipse.jgit.lib.Repository$1"), nullptr)
      << "nested classes keep their '$'";
}

TEST(PrefetchJarFile, SkipsModuleInfoMetaInfAndNonClassEntries) {
  TempDirectory directory;
  const std::string path = directory.file("mixed.jar");
  ASSERT_TRUE(write_zip(path, {{"META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n"},
                               {"module-info.class", "m"},
                               {"META-INF/versions/11/a/B.class", "v11"},
                               {"META-INF/versions/11/module-info.class", "m"},
                               {"a/", ""},
                               {"a/B.class", "base"},
                               {"a/B$1.class", "inner"},
                               {"a/package-info.class", "package"},
                               {"a/messages.properties", "x=y"}}));
  Result<JarFile> jar = JarFile::Open(path);
  ASSERT_TRUE(jar.ok()) << jar.status().message();
  std::vector<std::string> names;
  for (const JarClassEntry& entry : jar->class_entries()) names.push_back(entry.binary_name);
  EXPECT_EQ(names, (std::vector<std::string>{"a.B", "a.B$1", "a.package-info"}));
  Result<std::string> base = jar->read(jar->class_entries()[0]);
  ASSERT_TRUE(base.ok()) << base.status().message();
  EXPECT_EQ(*base, "base");
}

TEST(PrefetchJarFile, MissingFileIsAnErrorNamingThePath) {
  Result<JarFile> jar = JarFile::Open("/nonexistent/perflab/missing.jar");
  ASSERT_FALSE(jar.ok());
  EXPECT_NE(jar.status().message().find("/nonexistent/perflab/missing.jar"), std::string::npos)
      << jar.status().message();
}

TEST(PrefetchJarFile, NonZipFileIsAnErrorNamingThePath) {
  TempDirectory directory;
  const std::string path = directory.file("not-a.jar");
  std::ofstream(path) << "this is a text file, not a zip archive\n";
  Result<JarFile> jar = JarFile::Open(path);
  ASSERT_FALSE(jar.ok());
  EXPECT_NE(jar.status().message().find(path), std::string::npos) << jar.status().message();
  EXPECT_NE(jar.status().message().find("zip"), std::string::npos) << jar.status().message();

  Result<JarFile> a_directory = JarFile::Open(directory.path());
  EXPECT_FALSE(a_directory.ok());
}

TEST(PrefetchClasspath, FirstJarOnTheClasspathWins) {
  TempDirectory directory;
  const std::string first = directory.file("first.jar");
  const std::string second = directory.file("second.jar");
  ASSERT_TRUE(write_zip(first, {{"p/Shared.class", "from first"}, {"p/OnlyFirst.class", "1"}}));
  ASSERT_TRUE(write_zip(second, {{"p/OnlySecond.class", "2"}, {"p/Shared.class", "from second!"}}));

  Result<Classpath> classpath = Classpath::Open({first, second});
  ASSERT_TRUE(classpath.ok()) << classpath.status().message();
  EXPECT_EQ(classpath->jar_count(), 2);
  EXPECT_EQ(classpath->classes().size(), 3u);
  const std::optional<ClassLocation> shared = classpath->find("p.Shared");
  ASSERT_TRUE(shared.has_value());
  EXPECT_EQ(shared->jar, 0);
  EXPECT_EQ(classpath->entry(*shared).size_bytes, std::string("from first").size());
  EXPECT_EQ(*classpath->read_class(*shared), "from first");
  EXPECT_EQ(classpath->find("p.OnlySecond")->jar, 1);
  EXPECT_FALSE(classpath->find("p.Missing").has_value());

  Result<Classpath> reversed = Classpath::Open({second, first});
  ASSERT_TRUE(reversed.ok());
  EXPECT_EQ(*reversed->read_class(*reversed->find("p.Shared")), "from second!");
}

TEST(PrefetchClasspath, AMissingJarFailsTheWholeClasspath) {
  TempDirectory directory;
  const std::string good = directory.file("good.jar");
  ASSERT_TRUE(write_zip(good, {{"A.class", "a"}}));
  Result<Classpath> classpath = Classpath::Open({good, directory.file("gone.jar")});
  ASSERT_FALSE(classpath.ok());
  EXPECT_NE(classpath.status().message().find("gone.jar"), std::string::npos);
}

TEST(PrefetchClasspathFile, ReadsTheCommittedClasspath) {
  Result<std::vector<std::string>> paths = read_classpath_file(testing::classpath_file_path());
  ASSERT_TRUE(paths.ok()) << paths.status().message();
  ASSERT_FALSE(paths->empty());
  EXPECT_EQ(paths->front(), "/usr/share/java/org.eclipse.jgit.pgm.jar");
  for (const std::string& path : *paths) EXPECT_EQ(path.front(), '/') << path;
}

TEST(PrefetchClasspathFile, CommentsBlankLinesAndRelativePaths) {
  TempDirectory directory;
  const std::string file = directory.file("test.classpath");
  std::ofstream(file) << "# a comment\n\n  /abs/one.jar  \nlib/two.jar\r\n../three.jar\n";
  Result<std::vector<std::string>> paths = read_classpath_file(file);
  ASSERT_TRUE(paths.ok()) << paths.status().message();
  const std::string parent = std::filesystem::path(directory.path()).parent_path().string();
  EXPECT_EQ(*paths, (std::vector<std::string>{"/abs/one.jar", directory.path() + "/lib/two.jar",
                                              parent + "/three.jar"}));
}

TEST(PrefetchClasspathFile, MissingOrEmptyFileIsAnError) {
  TempDirectory directory;
  Result<std::vector<std::string>> missing = read_classpath_file(directory.file("none.classpath"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("none.classpath"), std::string::npos);

  const std::string empty = directory.file("empty.classpath");
  std::ofstream(empty) << "# nothing\n\n";
  Result<std::vector<std::string>> no_jars = read_classpath_file(empty);
  ASSERT_FALSE(no_jars.ok());
  EXPECT_NE(no_jars.status().message().find("no JAR paths"), std::string::npos);
}

}  // namespace
}  // namespace perflab::prefetch
