// What seeds a run (sim/study/seeding.h): the scenario's seed, the replication and a named stream, never the
// grid point's parameters. Written another way — a value re-spelled, a knob added at its default, a key moved
// between [params] and a one-value [sweep], keys reordered, a subset of the grid — a scenario gives the
// very same CSV rows; another seed gives other numbers.
#include <gtest/gtest.h>

#include <set>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "sim/study/knobs.h"
#include "sim/study/study.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

// The CSV `perflab run` writes for `scenario_text` (a scenario file's text) with `args` appended.
std::string run_csv(const std::string& scenario_text, const std::string& args = "") {
  TempDir dir;
  write_file(dir / "s.toml", scenario_text);
  auto r = run_perflab("run " + (dir / "s.toml").string() + " " + args + " --out " + dir.path().string());
  EXPECT_EQ(r.status, 0) << r.err;
  return read_file(dir / "s.csv");
}

// The CSV of a shipped scenario (scenarios/<name>.toml) with `args` appended.
std::string run_shipped_csv(const std::string& name, const std::string& args) {
  TempDir dir;
  auto r = run_perflab("run " + (fs::path(PERFLAB_SCENARIOS) / (name + ".toml")).string() + " " + args +
                       " --out " + dir.path().string());
  EXPECT_EQ(r.status, 0) << r.err;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() == ".csv" && file.find(".summary.") == std::string::npos) {
      return read_file(entry.path());
    }
  }
  ADD_FAILURE() << "no CSV written for " << name;
  return "";
}

const char* const kHeader =
    "[scenario]\nname = \"s\"\nstudy = \"pingpong\"\nseeds = 3\n[network]\n"
    "latency = \"lognormal(5ms, 0.5)\"\n";

TEST(Seeding, ReSpelledUnitsGiveTheSameRows) {
  const std::string as_written = run_csv(std::string(kHeader) +
                                         "bandwidth = \"100MBps\"\n[params]\nrequest_size = \"1KiB\"\n"
                                         "[sweep]\nrequests = [5, 9]\nreply_size = [\"64KiB\", \"1MiB\"]\n");
  const std::string re_spelled =
      run_csv(std::string(kHeader) +
              "bandwidth = \"800Mbps\"\n[params]\nrequest_size = \"1024B\"\n"
              "[sweep]\nrequests = [5, 9]\nreply_size = [\"65536B\", \"1024KiB\"]\n");
  EXPECT_EQ(as_written, re_spelled);
}

TEST(Seeding, ReorderedKeysAndAOneValueSweepGiveTheSameRows) {
  const std::string params =
      run_csv(std::string(kHeader) +
              "bandwidth = \"100MBps\"\n[params]\nrequests = 7\nreply_size = \"4KiB\"\n"
              "request_size = \"1KiB\"\n");
  const std::string sweep = run_csv(std::string(kHeader) +
                                    "bandwidth = \"100MBps\"\n[params]\nrequest_size = \"1KiB\"\n"
                                    "reply_size = \"4KiB\"\n[sweep]\nrequests = [7]\n");
  EXPECT_EQ(params, sweep);
}

TEST(Seeding, ASubsetOfTheGridGivesTheSameRows) {
  const std::string scenario = std::string(kHeader) +
                               "bandwidth = \"100MBps\"\n[sweep]\nrequests = [3, 5, 8]\n"
                               "reply_size = [\"1KiB\", \"64KiB\"]\n";
  const std::string full = run_csv(scenario);
  const std::string subset =
      run_csv(scenario, "--set 'sweep.requests=[8]' --set 'sweep.reply_size=[\"64KiB\"]'");
  // Every row of the subset is a row of the full grid, byte for byte: 3 seeds of one point.
  const std::vector<CsvRow> rows = parse_csv(subset);
  ASSERT_EQ(rows.size(), 3u);
  size_t line_start = subset.find('\n') + 1;
  while (line_start < subset.size()) {
    const size_t line_end = subset.find('\n', line_start);
    const std::string line = subset.substr(line_start, line_end - line_start + 1);
    EXPECT_NE(full.find(line), std::string::npos) << "not in the full grid: " << line;
    line_start = line_end + 1;
  }
}

TEST(Seeding, AnotherSeedGivesOtherNumbers) {
  const std::string scenario = std::string(kHeader) + "bandwidth = \"100MBps\"\n[params]\nrequests = 20\n";
  const std::vector<CsvRow> one = parse_csv(run_csv(scenario, "--seeds 1"));
  const std::vector<CsvRow> other = parse_csv(run_csv(scenario, "--seeds 1 --set scenario.seed=2"));
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(one[0].at("duration_s"), other[0].at("duration_s"));
}

// The three re-spellings of the issue that moved committed results, on the shipped scenarios.
TEST(Seeding, ADefaultWrittenOutMovesNoPrefetchCount) {
  const std::string narrow = "--seeds 2 --set 'sweep.prefetch_depth=[0,1,500]'";
  EXPECT_EQ(
      run_shipped_csv("prefetch/jgit-clone", narrow),
      run_shipped_csv("prefetch/jgit-clone", narrow + " --set 'params.server_cpu_per_class=\"0.05ms\"'"));
}

TEST(Seeding, ATransferSizeInBytesMovesNoPipeThroughput) {
  const std::string narrow =
      "--seeds 2 --set 'sweep.pack_rate=[\"48MiBps\"]' --set 'sweep.pipe_buffer=[\"4120B\", \"64KiB\"]'";
  EXPECT_EQ(run_shipped_csv("pipe/phase", narrow),
            run_shipped_csv("pipe/phase", narrow + " --set 'params.transfer_bytes=\"4194304B\"'"));
}

TEST(Seeding, KAsAOneValueSweepMovesNoShareCount) {
  const std::string narrow = "--seeds 2 --set 'sweep.cpu=[\"measured\"]'";
  EXPECT_EQ(run_shipped_csv("share/download-12mib", narrow),
            run_shipped_csv("share/download-12mib", narrow + " --set 'sweep.k=[3]'"));
}

// A test-only study (no simulator: it only draws from its streams) with and without an extra knob.
struct ProbeOptions {
  int64_t draws = 3;
  double size = 1024;  // bytes
  int64_t extra = 7;   // only in the wider study
};

Knobs<ProbeOptions> probe_knobs(bool with_extra) {
  Knobs<ProbeOptions> k;
  k.integer("draws", &ProbeOptions::draws, "how many numbers to draw").at_least(1);
  k.size("size", &ProbeOptions::size, "a size the draws ignore");
  if (with_extra) k.integer("extra", &ProbeOptions::extra, "a knob added later, at its default");
  return k;
}

void register_probe(const std::string& name, bool with_extra) {
  Study study;
  study.name = name;
  study.description = "seeding test probe";
  study.params = probe_knobs(with_extra).specs();
  study.metrics = {{"first", "the first draw of stream probe.a"},
                   {"sum", "the sum of the draws"},
                   {"other", "the first draw of stream probe.b"}};
  study.run_sim = [with_extra](const RunContext& context) -> Result<Metrics> {
    const ProbeOptions options = probe_knobs(with_extra).options(context.params);
    Rng a = context.rng("probe.a");
    const double first = a.uniform01();
    double sum = first;
    for (int64_t i = 1; i < options.draws; ++i) sum += a.uniform01();
    return Metrics{{"first", first}, {"sum", sum}, {"other", context.rng("probe.b").uniform01()}};
  };
  register_study(std::move(study));
}

std::vector<Metrics> probe_runs(const std::string& study, const std::string& sweep) {
  auto scenario = load_scenario_text("[scenario]\nname = \"p\"\nstudy = \"" + study +
                                         "\"\nseeds = 3\n[network]\nlatency = \"constant(1ms)\"\n"
                                         "bandwidth = \"1MBps\"\n[sweep]\n" +
                                         sweep + "\n",
                                     "probe.toml", ".", {});
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  std::vector<Metrics> out;
  if (!scenario.ok()) return out;
  for (size_t p = 0; p < scenario->grid.size(); ++p) {
    for (int r = 0; r < scenario->seeds; ++r) {
      RunRow row = run_one(*scenario, p, r, PointInputs{}, RunOptions{});
      EXPECT_TRUE(row.ok()) << row.error;
      out.push_back(row.metrics);
    }
  }
  return out;
}

TEST(Seeding, AKnobAddedAtItsDefaultMovesNothing) {
  register_probe("seeding-probe", false);
  register_probe("seeding-probe-wider", true);
  const std::string sweep = "draws = [3, 5]\nsize = [\"1KiB\", \"2KiB\"]";
  const auto narrow = probe_runs("seeding-probe", sweep);
  const auto wider = probe_runs("seeding-probe-wider", sweep);
  ASSERT_EQ(narrow.size(), 12u);
  EXPECT_EQ(narrow, wider);
  // Common random numbers: every point's first draw at one seed is the same; seeds and streams differ.
  std::set<double> firsts, others;
  for (size_t i = 0; i < narrow.size(); ++i) {
    EXPECT_EQ(narrow[i].at("first"), narrow[i % 3].at("first"));
    firsts.insert(narrow[i].at("first"));
    others.insert(narrow[i].at("other"));
  }
  EXPECT_EQ(firsts.size(), 3u);
  EXPECT_EQ(others.size(), 3u);
  EXPECT_NE(*firsts.begin(), *others.begin());
}

}  // namespace
}  // namespace perflab::testing
