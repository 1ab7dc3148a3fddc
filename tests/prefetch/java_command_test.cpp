// The java launcher's main class and classpath (models/prefetch/java_command.h): -cp, $CLASSPATH, the
// current folder, -jar with its manifest's Class-Path (continuation lines, relative URLs, missing entries
// skipped as the JVM does), DIR/* wildcards, folders kept apart, and the errors.
#include "models/prefetch/java_command.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/prefetch/zip_writer.h"

namespace perflab::prefetch {
namespace {

using testing::TempDirectory;
using testing::write_zip;

TEST(JavaCommand, SplitsOptionsMainClassAndArguments) {
  auto c = parse_java_command({"-Xmx1g", "-cp", "a.jar:b.jar", "--add-opens",
                               "java.base/java.lang=ALL-UNNAMED", "org.example.Main", "-cp", "x"});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->jvm_options,
            (std::vector<std::string>{"-Xmx1g", "--add-opens", "java.base/java.lang=ALL-UNNAMED"}));
  EXPECT_EQ(*c->classpath_option, "a.jar:b.jar");
  EXPECT_EQ(c->main_class, "org.example.Main");
  EXPECT_EQ(c->program_arguments, (std::vector<std::string>{"-cp", "x"}));  // the program's, not the JVM's
  auto jar = parse_java_command({"--class-path=z.jar", "-jar", "app.jar", "run"});
  ASSERT_TRUE(jar.ok());
  EXPECT_EQ(jar->jar, "app.jar");
  EXPECT_EQ(jar->program_arguments, std::vector<std::string>{"run"});
}

TEST(JavaCommand, RefusesWhatItCannotRun) {
  EXPECT_NE(parse_java_command({"-Xmx1g"}).status().message().find("no main class"), std::string::npos);
  EXPECT_NE(parse_java_command({"-cp"}).status().message().find("-cp needs a classpath"), std::string::npos);
  EXPECT_NE(parse_java_command({"-m", "mod/Main"}).status().message().find("module launch"),
            std::string::npos);
}

TEST(JavaCommand, ClasspathFromOptionThenVariableThenCurrentFolder) {
  TempDirectory dir;
  ASSERT_TRUE(write_zip(dir.file("a.jar"), {{"A.class", "x"}}));
  ASSERT_TRUE(write_zip(dir.file("b.jar"), {{"B.class", "x"}}));
  std::filesystem::create_directory(dir.file("classes"));
  auto with_option = parse_java_command({"-cp", "b.jar:classes:a.jar:b.jar", "Main"});
  auto cp = resolve_classpath(*with_option, std::string("ignored.jar"), dir.path());
  ASSERT_TRUE(cp.ok()) << cp.status().message();
  EXPECT_EQ(cp->jars, (std::vector<std::string>{dir.file("b.jar"), dir.file("a.jar")}));  // each once
  EXPECT_EQ(cp->directories, std::vector<std::string>{dir.file("classes")});

  auto plain = parse_java_command({"Main"});
  auto from_variable = resolve_classpath(*plain, dir.file("a.jar"), "/");
  ASSERT_TRUE(from_variable.ok());
  EXPECT_EQ(from_variable->jars, std::vector<std::string>{dir.file("a.jar")});
  auto current = resolve_classpath(*plain, std::nullopt, dir.path());
  ASSERT_TRUE(current.ok());
  EXPECT_TRUE(current->jars.empty());
  EXPECT_EQ(current->directories, std::vector<std::string>{dir.path()});

  auto wildcard =
      resolve_classpath(*parse_java_command({"-cp", dir.path() + "/*", "Main"}), std::nullopt, "/");
  ASSERT_TRUE(wildcard.ok());
  EXPECT_EQ(wildcard->jars, (std::vector<std::string>{dir.file("a.jar"), dir.file("b.jar")}));
}

TEST(JavaCommand, JarWithManifestClassPath) {
  TempDirectory dir;
  std::filesystem::create_directory(dir.file("lib"));
  ASSERT_TRUE(write_zip(dir.file("lib/dep-one.jar"), {{"D.class", "x"}}));
  ASSERT_TRUE(write_zip(dir.file("lib/dep-two.jar"), {{"E.class", "x"}}));
  // 72-byte lines: the attribute continues on lines starting with a space.
  ASSERT_TRUE(
      write_zip(dir.file("app.jar"),
                {{"META-INF/MANIFEST.MF",
                  "Manifest-Version: 1.0\r\nMain-Class: app.Main\r\nClass-Path: lib/dep-one.jar lib/mi\r\n "
                  "ssing.jar lib/dep-\r\n two.jar\r\n\r\n"},
                 {"app/Main.class", "x"}}));
  auto command = parse_java_command({"-cp", "ignored-with-jar.jar", "-jar", "app.jar"});
  auto cp = resolve_classpath(*command, std::string("also-ignored.jar"), dir.path());
  ASSERT_TRUE(cp.ok()) << cp.status().message();
  EXPECT_EQ(cp->jars, (std::vector<std::string>{dir.file("app.jar"), dir.file("lib/dep-one.jar"),
                                                dir.file("lib/dep-two.jar")}));
  ASSERT_EQ(cp->notes.size(), 1U);
  EXPECT_NE(cp->notes[0].find("lib/missing.jar does not exist (the JVM skips it)"), std::string::npos);
}

TEST(JavaCommand, MissingElementIsAnError) {
  TempDirectory dir;
  auto cp = resolve_classpath(*parse_java_command({"-cp", "gone.jar", "Main"}), std::nullopt, dir.path());
  ASSERT_FALSE(cp.ok());
  EXPECT_EQ(cp.status().message(), "-cp: classpath element \"gone.jar\" (" + dir.file("gone.jar") +
                                       ") does not exist, expected a JAR or a folder");
  auto jar = resolve_classpath(*parse_java_command({"-jar", "gone.jar"}), std::nullopt, dir.path());
  ASSERT_FALSE(jar.ok());
  EXPECT_NE(jar.status().message().find("-jar: classpath element \"gone.jar\""), std::string::npos);
}

}  // namespace
}  // namespace perflab::prefetch
