// Check, then write: every input file a scenario names (class-load log, classpath, JARs, pipe write traces)
// is read and checked before anything is written to --out, and the message names the file and the
// parameter that pointed to it without echoing raw bytes; --out and --timeline are checked for
// writability before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

// Whether every byte of `text` is printable ASCII or a newline: no raw control bytes reached stderr.
bool printable_only(const std::string& text) {
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte != '\n' && (byte < 0x20 || byte == 0x7f)) return false;
  }
  return true;
}

std::string random_bytes(size_t count) {
  std::mt19937 engine(7);
  std::string bytes;
  for (size_t i = 0; i < count; ++i) bytes += static_cast<char>(engine() & 0xff);
  return bytes;
}

std::string head_of(const fs::path& file, size_t bytes) {
  return read_file(file).substr(0, bytes);
}

struct BadInput {
  std::string name;
  std::string file_text;  // written to a temp folder as `file_name`
  std::string file_name;
  std::string run;        // the perflab run arguments; FILE stands for the file's path
  std::string parameter;  // what the message must name, beside the file
  std::string message;    // what else it must say
};

std::string replaced(std::string text, const std::string& file) {
  for (size_t at; (at = text.find("FILE")) != std::string::npos;) text.replace(at, 4, file);
  return text;
}

TEST(InputFiles, AreCheckedBeforeAnythingIsWrittenAndNamedWithTheirParameter) {
  const fs::path data = fs::path(PERFLAB_SCENARIOS);
  const std::string prefetch = "run prefetch/jgit-clone --seeds 1 --set 'sweep.prefetch_depth=[1]' ";
  const std::string pipe =
      "run pipe/git-clone --case jdk --seeds 1 --set 'sweep.mechanism=[\"none\"]' "
      "--set 'params.writer=\"trace\"' ";
  const std::string log = read_file(data / "prefetch/data/jgit-clone.classload.log");
  const std::vector<BadInput> cases = {
      {"garbage class-load log", random_bytes(300), "garbage.log", prefetch + "--set 'params.trace=\"FILE\"'",
       "params.trace", "garbage.log:1: "},
      {"truncated class-load log", log.substr(0, log.find("[class,load]", log.size() / 2) + 20), "cut.log",
       prefetch + "--set 'params.trace=\"FILE\"'", "params.trace", "cut.log:"},
      {"a JAR that is no zip", "not a zip\n", "fake.jar", prefetch + "--set 'params.classpath=[\"FILE\"]'",
       "params.classpath", "fake.jar: cannot open as a JAR"},
      {"a classpath file of random bytes", random_bytes(200), "random.classpath",
       prefetch + "--set 'params.classpath=[\"FILE\"]'", "params.classpath", "random.classpath:1: \"\\x"},
      {"a classpath file listing a JAR that is not there", "/usr/share/java/no-such.jar\n", "gone.classpath",
       prefetch + "--set 'params.classpath=[\"FILE\"]'", "params.classpath",
       "gone.classpath: lists /usr/share/java/no-such.jar, which is not a file"},
      {"truncated pipe trace", head_of(data / "pipe/data/git-upload-pack.8KiB.writes.csv", 900) + "0.0",
       "cut.csv", pipe + "--set 'params.trace=\"FILE\"'", "params.trace", "cut.csv:"},
      {"header-only pipe trace", "time_s,bytes\n", "header.csv", pipe + "--set 'params.trace=\"FILE\"'",
       "params.trace", "the trace has no writes"},
      {"negative bytes in a pipe trace", "time_s,bytes\n0.0,100\n0.1,-5\n", "negative.csv",
       pipe + "--set 'params.trace=\"FILE\"'", "params.trace",
       "negative.csv:3: a write must have at least 1 byte"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    fs::path file = dir / c.file_name;
    write_file(file, c.file_text);
    auto result = run_perflab(replaced(c.run, file.string()) + " --out " + (dir / "out").string());
    EXPECT_EQ(result.status, 2) << result.err;
    EXPECT_NE(result.err.find("perflab: error: " + c.parameter + ": "), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(file.string()), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
    EXPECT_TRUE(printable_only(result.err)) << "raw bytes in: " << result.err;
    EXPECT_LT(result.err.size(), 600U) << result.err;
    EXPECT_FALSE(fs::exists(dir / "out")) << "wrote into --out before checking the inputs";
  }
}

TEST(InputFiles, OutAndTimelineAreCheckedForWritabilityFirst) {
  TempDir dir;
  write_file(dir / "a-file", "x");
  const std::string one_run = "run pingpong/wan --seeds 1 --set 'sweep.reply_size=[\"1KiB\"]' ";
  auto out = run_perflab(one_run + "--out " + (dir / "a-file").string());
  EXPECT_EQ(out.status, 2) << out.err;
  EXPECT_NE(out.err.find("--out " + (dir / "a-file").string() + ": is a file, expected a folder"),
            std::string::npos)
      << out.err;
  auto timeline = run_perflab(one_run + "--timeline " + (dir / "a-file" / "t.json").string());
  EXPECT_EQ(timeline.status, 2) << timeline.err;
  EXPECT_NE(timeline.err.find("--timeline " + (dir / "a-file" / "t.json").string() + ": "), std::string::npos)
      << timeline.err;
  EXPECT_NE(timeline.err.find("is not a folder"), std::string::npos) << timeline.err;
  EXPECT_TRUE(timeline.out.empty()) << "ran before finding the timeline unwritable";

  // A timeline in a folder that does not exist yet is written there.
  auto nested = run_perflab(one_run + "--timeline " + (dir / "new" / "t.json").string());
  EXPECT_EQ(nested.status, 0) << nested.err;
  EXPECT_TRUE(fs::exists(dir / "new" / "t.json"));
}

}  // namespace
}  // namespace perflab::testing
