// Bad input never crashes and never writes output: each malformed scenario in bad_scenarios/ (its first two
// lines say the expected line and message) and each bad invocation exits 2 with a message saying where.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

struct Expectation {
  int line = 0;
  std::string message;
};

Expectation read_expectation(const fs::path& file) {
  std::ifstream in(file);
  std::string line_text, message_text;
  std::getline(in, line_text);
  std::getline(in, message_text);
  Expectation e;
  e.line = std::stoi(line_text.substr(line_text.find(':') + 1));
  e.message = message_text.substr(message_text.find(':') + 2);
  return e;
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(PERFLAB_BAD_SCENARIOS)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(SimCliErrors, CorpusIsLargeEnough) {
  EXPECT_GE(corpus().size(), 30U);
}

TEST(SimCliErrors, EveryMalformedScenarioSaysWhereAndExits2WithoutOutput) {
  for (const auto& file : corpus()) {
    SCOPED_TRACE(file.filename().string());
    TempDir out;
    auto expectation = read_expectation(file);
    auto result = run_perflab("run " + file.string() + " --out " + out.path().string());
    EXPECT_EQ(result.status, 2) << result.err;
    std::string where = file.string() + ":" + std::to_string(expectation.line) + ": ";
    EXPECT_NE(result.err.find("perflab: error: " + where), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(expectation.message), std::string::npos) << result.err;
    EXPECT_TRUE(fs::is_empty(out.path())) << "wrote output for a bad scenario";
    EXPECT_TRUE(result.out.empty());
  }
}

struct BadInvocation {
  std::string args;
  std::string message;
};

TEST(SimCliErrors, BadInvocationsNameTheFlagAndExit2) {
  TempDir dir;
  write_file(dir / "ok.toml", pingpong_scenario("ok", "[sweep]\nrequests = [1, 2]\n"));
  std::string ok = (dir / "ok.toml").string();
  fs::create_directories(dir / "taken" / "ok.md");  // where the report goes, a folder
  const std::vector<BadInvocation> cases = {
      {"", "A subcommand is required"},
      {"frobnicate", "frobnicate"},
      {"run", "SCENARIO is required"},
      {"run " + (dir / "missing.toml").string(), "no such scenario file"},
      {"run " + ok + " --jobs 0", "--jobs"},
      {"run " + ok + " --seeds -1", "--seeds"},
      {"run " + ok + " --format xml", "--format"},
      {"run " + ok + " --set requests", "expected KEY=VALUE"},
      {"run " + ok + " --set params.nope=1", "unknown parameter \"nope\""},
      {"run " + ok + " --set scenario.colour=1", "unknown key \"colour\" in [scenario]"},
      {"run " + ok + " --set bogus.x=1", "unknown section \"bogus\""},
      {"run " + ok + " --set sweep.requests=5", "a sweep takes a list"},
      {"run " + ok + " --set params.requests=abc", "is not a TOML value"},
      {"run " + ok + " --set 'params.request_size=\"12 bananas\"'", "--set params.request_size"},
      {"run " + ok + " --set 'sweep.requests=[]'", "is empty"},
      {"run " + ok + " --point-timeout -5s", "--point-timeout"},
      {"run " + ok + " --point-timeout soon", "--point-timeout"},
      {"run " + ok + " --resume", "--resume continues an --out run"},
      {"run " + ok + " --resume --out " + (dir / "never").string(), "nothing to resume"},
      {"run " + ok + " --timeline " + (dir / "t.json").string(), "--timeline needs a single run"},
      {"describe", "NAME is required"},
      {"describe nosuchstudy", "unknown study \"nosuchstudy\""},
      {"reproduce nosuchstudy", "unknown study \"nosuchstudy\""},
      {"reproduce --update --out " + (dir / "r").string(), "--update rewrites results/ and --out"},
      {"check prefetch --record", "--record keeps the verdict of the whole gate"},
      {"check prefetch --update --quick", "--update rewrites the committed results, which are whole runs"},
      {"run " + ok + " --out ''", "--out: an empty path is not valid"},
      {"run " + ok + " --set 'scenario.point_timeout=\"0s\"'", "--set scenario.point_timeout=\"0s\": "},
      {"run " + ok + " --set 'sweep.requests=[1, 1]'", "sweep \"requests\" lists 1 twice"},
      {"run " + ok + " --set 'params.request_size=\"1e30B\"'", "too large, expected a size of at most"},
      {"run dispatcher/enqueue-burst --seeds 1 --timeline " + (dir / "t.json").string(),
       "--timeline: the micro engine keeps no timeline"},
      {"describe " + (dir / "nothere.toml").string(), "no such scenario file"},
      {"run " + ok + " --out " + (dir / "taken").string(),
       "ok.md is a folder, expected a file this run can write"},
      {"reproduce --readme-only --out " + (dir / "none").string(),
       "--readme-only renders the results already"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    auto result = run_perflab(c.args);
    EXPECT_EQ(result.status, 2) << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
  }
  EXPECT_FALSE(fs::exists(dir / "t.json"));
  EXPECT_FALSE(fs::exists(dir / "never")) << "--resume made the --out folder it had nothing to resume in";
  EXPECT_FALSE(fs::exists(dir / "none"));
  EXPECT_FALSE(fs::exists(dir / "taken" / "ok.csv")) << "ran although its report could not be written";
}

TEST(SimCliErrors, HelpExplainsEveryCommand) {
  auto top = run_perflab("--help");
  EXPECT_EQ(top.status, 0);
  for (const char* command : {"list", "describe", "run", "reproduce"}) {
    EXPECT_NE(top.out.find(command), std::string::npos) << command;
  }
  auto run = run_perflab("run --help");
  EXPECT_EQ(run.status, 0);
  for (const char* flag :
       {"--set", "--seeds", "--jobs", "--out", "--format", "--point-timeout", "--resume", "--timeline"}) {
    EXPECT_NE(run.out.find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace perflab::testing
