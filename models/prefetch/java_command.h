// What a `java` command line runs and with which classpath, as the JDK 17 launcher decides it
// (src/java.base/share/native/libjli/java.c: ParseArguments, SetClassPath; the `java` tool's manual):
//   java [options] MAINCLASS [args...]    classpath from -cp / -classpath / --class-path, else $CLASSPATH,
//                                          else the current directory
//   java [options] -jar FILE.jar [args...] classpath is FILE.jar, then its manifest's Class-Path (URLs
//                                          relative to the JAR's folder, separated by spaces); -cp and
//                                          $CLASSPATH are ignored
// A classpath element "DIR/*" stands for the JARs in DIR; an empty element is the current directory.
// Used by `perflab capture prefetch` to record the classpath a program really ran with (the JARs the
// study's controller serves); the JVM's own options stay as given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab::prefetch {

struct JavaCommand {
  std::vector<std::string> jvm_options;         // the launcher options before the main class or -jar
  std::optional<std::string> classpath_option;  // -cp / -classpath / --class-path's value
  std::string main_class;                       // empty with -jar
  std::string jar;                              // -jar's file; empty otherwise
  std::vector<std::string> program_arguments;   // after the main class or the JAR
};

// `arguments`: the command line after the `java` executable. Errors: no main class or -jar, a module
// launch (-m / --module), an option missing its value.
Result<JavaCommand> parse_java_command(const std::vector<std::string>& arguments);

struct ResolvedClasspath {
  std::vector<std::string> jars;         // absolute, in classpath order, each once
  std::vector<std::string> directories;  // classpath folders: their classes are in no JAR
  std::vector<std::string> notes;        // manifest Class-Path entries that do not exist (the JVM skips them)
};

// The classpath `command` runs with; `environment_classpath` is $CLASSPATH if set, relative paths start at
// `working_directory`. Errors: an element (of -cp, $CLASSPATH or -jar) that does not exist, a JAR that cannot
// be read.
Result<ResolvedClasspath> resolve_classpath(const JavaCommand& command,
                                            const std::optional<std::string>& environment_classpath,
                                            const std::string& working_directory);

// The Class-Path attribute of a JAR's META-INF/MANIFEST.MF (continuation lines joined), "" if none.
Result<std::string> manifest_class_path(const std::string& jar);

}  // namespace perflab::prefetch
