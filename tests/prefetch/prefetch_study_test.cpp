// The prefetch study end to end on the real JGit trace and JARs: counts depend only on the configuration,
// durations on the latency seed; depth 0 costs one RPC per class; bad workload files are input errors.
#include <gtest/gtest.h>

#include <set>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

const std::string kScenario = std::string(PERFLAB_SCENARIOS) + "/prefetch/jgit-clone.toml";

TEST(ScenarioPrefetch, CountsDoNotDependOnTheLatencySeedButDurationsDo) {
  TempDir dir;
  auto r = run_perflab(
      "run " + kScenario + " --seeds 3 --set params.jar_cache='\"warm\"' " +
      "--set 'sweep.prefetch_depth=[0,1,10]' --set 'network.latency=\"uniform(5ms,50ms)\"' --out " +
      dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "prefetch-jgit-clone.csv"));
  ASSERT_EQ(rows.size(), 9U);
  for (size_t point = 0; point < 3; ++point) {
    const auto& first = rows[point * 3];
    std::set<std::string> durations;
    for (size_t seed = 0; seed < 3; ++seed) {
      const auto& row = rows[point * 3 + seed];
      for (const char* metric :
           {"rpcs", "classes_prefetched", "prefetch_hits", "bytes_prefetched", "server_classes_loaded"}) {
        EXPECT_EQ(row.at(metric), first.at(metric)) << metric << " at depth " << row.at("prefetch_depth");
      }
      durations.insert(row.at("duration_s"));
    }
    EXPECT_EQ(durations.size(), 3U) << "durations should differ between latency seeds";
  }
  // Depth 0 sends only the requested class: one RPC per class of the workload (704 in the committed trace).
  EXPECT_EQ(rows[0].at("rpcs"), rows[0].at("classes_prefetched"));
  EXPECT_EQ(rows[0].at("prefetch_hits"), "0");
  EXPECT_LT(std::stod(rows[3].at("rpcs")), std::stod(rows[0].at("rpcs")));
  EXPECT_LT(std::stod(rows[6].at("rpcs")), std::stod(rows[3].at("rpcs")));
  EXPECT_LT(std::stod(rows[3].at("duration_s")), std::stod(rows[0].at("duration_s")));
}

TEST(ScenarioPrefetch, InitiationOrderSavesTheRpcsALoggedOrderReplayPaysForSupertypes) {
  TempDir dir;
  auto r =
      run_perflab("run " + kScenario + " --seeds 1 --set params.jar_cache='\"warm\"' " +
                  "--set 'sweep.prefetch_depth=[1]' --set 'sweep.trace_order=[\"initiated\", \"logged\"]' " +
                  "--out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "prefetch-jgit-clone.csv"));
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].at("trace_order"), "initiated");
  EXPECT_EQ(rows[0].at("rpcs"), "354");  // tests/prefetch/jgit_workload_test.cpp pins the whole table
  EXPECT_EQ(rows[0].at("classes_prefetched"), "944");
  EXPECT_EQ(rows[1].at("trace_order"), "logged");
  EXPECT_EQ(rows[1].at("rpcs"), "370");
  EXPECT_EQ(rows[1].at("classes_prefetched"), "953");
}

TEST(ScenarioPrefetch, ColdCacheDownloadsOnlyTheJarsOfDefinedClassesDelayedOrNot) {
  TempDir dir;
  auto r = run_perflab("run " + kScenario + " --seeds 2 --set 'sweep.prefetch_depth=[1, 500]' " +
                       "--set 'sweep.delay_jar_downloads=[true, false]' --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "prefetch-jgit-clone.csv"));
  ASSERT_EQ(rows.size(), 8U);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("jar_downloads"), "8");  // the 8 JARs the 704 classes come from, not the hints' JARs
    // Every RPC is a fetch3 or an extra fetch, and each extra fetch follows one hit or one fetch3.
    EXPECT_EQ(std::stod(row.at("rpcs")),
              std::stod(row.at("fetch3_calls")) + std::stod(row.at("extra_fetches")));
    EXPECT_LE(std::stod(row.at("extra_fetches")),
              std::stod(row.at("prefetch_hits")) + std::stod(row.at("fetch3_calls")));
  }
}

TEST(ScenarioPrefetch, DurationIsRpcsTimesMeanInjectedDelayPlusBase) {
  // With a constant 100 ms injected delay and no CPU costs, every RPC costs 100 ms + one round trip.
  TempDir dir;
  auto r =
      run_perflab("run " + kScenario + " --seeds 1 --set params.jar_cache='\"warm\"' " +
                  "--set 'params.rpc_delay=\"constant(100ms)\"' --set 'params.server_cpu_per_class=\"0s\"' " +
                  "--set 'params.client_cpu_per_class=\"0s\"' --set 'sweep.prefetch_depth=[1]' --out " +
                  dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto row = parse_csv(read_file(dir / "prefetch-jgit-clone.csv")).at(0);
  double rpcs = std::stod(row.at("rpcs"));
  double duration = std::stod(row.at("duration_s"));
  EXPECT_NEAR(duration, rpcs * (0.100 + 2 * 0.020), rpcs * 0.001);  // + transfer of small replies
}

TEST(ScenarioPrefetch, MalformedTraceIsAnInputErrorWithItsLine) {
  TempDir dir;
  write_file(dir / "bad.log",
             "[0.012s][info][class,load] java.lang.Object source: jrt:/java.base\n"
             "this is not a class-load line\n");
  auto r = run_perflab("run " + kScenario + " --set 'params.trace=\"" + (dir / "bad.log").string() + "\"'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.log:2:"), std::string::npos) << r.err;
}

TEST(ScenarioPrefetch, MissingJarIsAnInputError) {
  auto r = run_perflab("run " + kScenario + " --set 'params.classpath=[\"/nonexistent/jgit.jar\"]'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/nonexistent/jgit.jar"), std::string::npos) << r.err;
}

TEST(ScenarioPrefetch, EmptyClasspathFileIsAnInputError) {
  TempDir dir;
  write_file(dir / "empty.classpath", "# no JARs here\n");
  auto r = run_perflab("run " + kScenario + " --set 'params.classpath=[\"" +
                       (dir / "empty.classpath").string() + "\"]'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("empty.classpath: no JAR paths"), std::string::npos) << r.err;
}

TEST(ScenarioPrefetch, NotAJarIsAnInputError) {
  TempDir dir;
  write_file(dir / "fake.jar", "not a zip file");
  auto r =
      run_perflab("run " + kScenario + " --set 'params.classpath=[\"" + (dir / "fake.jar").string() + "\"]'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("fake.jar"), std::string::npos) << r.err;
}

TEST(ScenarioPrefetch, TimelineShowsRpcsAndJarDownloads) {
  TempDir dir;
  auto r = run_perflab("run " + kScenario + " --seeds 1 --set params.prefetch_depth=1 --timeline " +
                       (dir / "t.json").string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::string json = read_file(dir / "t.json");
  EXPECT_NE(json.find("\"name\":\"fetch3 org.eclipse.jgit"), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"fetchJar jar#"), std::string::npos);
}

}  // namespace
}  // namespace perflab::testing
