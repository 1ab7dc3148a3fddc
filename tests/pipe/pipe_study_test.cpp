// The `pipe` study through the perflab binary: the headline scenario on a small transfer, the trace writer
// on the committed capture, determinism across --jobs, and bad parameters refused before anything runs.
#include <gtest/gtest.h>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

const std::string kScenario = std::string(PERFLAB_SCENARIOS) + "/pipe/git-clone.toml";

double throughput(const std::vector<CsvRow>& rows, const std::string& name, const std::string& mechanism) {
  for (const auto& row : rows) {
    if (row.at("case") == name && row.at("mechanism") == mechanism)
      return std::stod(row.at("throughput_mib_s_mean"));
  }
  ADD_FAILURE() << "no row for " << name << " / " << mechanism;
  return 0;
}

TEST(PipeStudy, HeadlineShapeOnASmallTransfer) {
  TempDir dir;
  CliResult r =
      run_perflab("run " + kScenario + " --seeds 2 --jobs 2 --set 'params.transfer_bytes=\"4MiB\"' --out " +
                  dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "pipe-git-clone.summary.csv"));
  double jdk = throughput(rows, "jdk", "poll-tick");
  EXPECT_LT(throughput(rows, "nuprocess-2.0.1", "poll-tick"), jdk / 5);
  EXPECT_NEAR(throughput(rows, "nuprocess-2.0.2", "poll-tick"), jdk, 0.15 * jdk);
  EXPECT_GT(throughput(rows, "linux", "poll-tick"), 0.85 * jdk);
  EXPECT_GT(throughput(rows, "nuprocess-2.0.1", "completion-delay"), jdk / 5);
}

TEST(PipeStudy, SameCsvWhateverTheJobs) {
  TempDir one, two;
  const std::string args = "run " + kScenario + " --seeds 2 --set 'params.transfer_bytes=\"1MiB\"' --out ";
  ASSERT_EQ(run_perflab(args + one.path().string() + " --jobs 1").status, 0);
  ASSERT_EQ(run_perflab(args + two.path().string() + " --jobs 2").status, 0);
  EXPECT_EQ(read_file(one / "pipe-git-clone.csv"), read_file(two / "pipe-git-clone.csv"));
}

TEST(PipeStudy, TraceWriterReplaysTheCommittedCapture) {
  TempDir dir;
  write_file(dir / "t.toml",
             "[scenario]\nname = \"t\"\nstudy = \"pipe\"\nengine = \"sim\"\n[network]\nlatency = \"0ms\"\n"
             "bandwidth = \"1GBps\"\n[params]\nwriter = \"trace\"\ntrace = \"" +
                 std::string(PERFLAB_SCENARIOS) + "/pipe/data/git-upload-pack.64KiB.writes.csv\"\n");
  CliResult r = run_perflab("run " + (dir / "t.toml").string() + " --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("throughput_mib_s"), std::string::npos);
}

// A run of real git children records which git ran (`uses = git 2.39.5` in its .meta), so a report of its
// relay cost names the git that was measured, not the one on the machine drawing the page; a sim run,
// which runs no program, records none.
TEST(PipeStudy, TheRealRunsMetaNamesTheGitItRan) {
  TempDir dir;
  const std::string real = std::string(PERFLAB_SCENARIOS) + "/pipe/linux-real.toml";
  CliResult r = run_perflab("run " + real +
                            " --set params.repo_mib=1 --set 'sweep.real_child=[\"pack-objects\"]' "
                            "--set 'sweep.pipe_buffer=[\"64KiB\"]' --set scenario.repetitions=1 --out " +
                            dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string meta = read_file(dir / "pipe-linux-real.meta");
  auto at = meta.find("\nuses = git ");
  ASSERT_NE(at, std::string::npos) << meta;
  EXPECT_NE(meta[at + std::string("\nuses = git ").size()], '?') << meta;

  TempDir sim;
  ASSERT_EQ(run_perflab("run " + kScenario + " --seeds 1 --set 'params.transfer_bytes=\"1MiB\"' --out " +
                        sim.path().string())
                .status,
            0);
  EXPECT_EQ(read_file(sim / "pipe-git-clone.meta").find("uses ="), std::string::npos);
}

// `perflab validate` in same-run mode sets the committed calibration (results/pipe/<calibration
// scenario>.calibration.toml) on the scenario it runs, so each replay uses the calibrated reader cost, and
// pairs reads and time: a tiny pipe study (1 MiB repository, pack-objects, one pipe size, 5 passes).
TEST(PipeStudy, ValidateSetsTheCommittedCalibrationOnTheSameRunReplay) {
  TempDir dir;
  fs::create_directories(dir / "scenarios" / "pipe");
  // the study's default trace is read from its scenarios folder; the repository is made by its script
  fs::create_directory_symlink(fs::path(PERFLAB_SCENARIOS) / "pipe" / "data",
                               dir / "scenarios" / "pipe" / "data");
  fs::copy_file(fs::path(PERFLAB_SCENARIOS) / "pipe" / "make_repo.sh",
                dir / "scenarios" / "pipe" / "make_repo.sh");
  const std::string head =
      "study = \"pipe\"\nengine = \"micro\"\nrepetitions = 1\n[params]\nrepo_mib = 1\n"
      "platform = \"linux\"\npump = \"nuprocess-epoll\"\nreal_child = \"pack-objects\"\n";
  write_file(dir / "scenarios" / "pipe" / "calibrate.toml",
             "[scenario]\nname = \"tiny-calibrate\"\n" + head + "pipe_buffer = \"32KiB\"\n");
  write_file(dir / "scenarios" / "pipe" / "validate.toml",
             "[scenario]\nname = \"tiny-validate\"\n" + head +
                 "pipe_buffer = \"64KiB\"\n[validate]\npairs = [[\"reads\", \"same_run_sim_reads\", "
                 "\"same_run_reads\"], [\"throughput\", \"same_run_sim_mib_s\", \"same_run_mib_s\"]]\n"
                 "calibration_scenario = \"" +
                 (dir / "scenarios" / "pipe" / "calibrate.toml").string() + "\"\n");
  fs::create_directories(dir / "results" / "pipe");
  write_file(dir / "results" / "pipe" / "tiny-calibrate.calibration.toml",
             "[constants]\nread_cost_c0_us = { value = 0.5, unit = \"\" }\n"
             "read_cost_c1_ns = { value = 0.25, unit = \"\" }\n");
  const std::map<std::string, std::string> env = {{"PERFLAB_SCENARIOS", (dir / "scenarios").string()},
                                                  {"PERFLAB_RESULTS", (dir / "results").string()}};
  auto r = run_perflab("validate pipe", env);
  ASSERT_NE(r.status, 2) << r.err;
  EXPECT_NE(r.out.find("read_cost_c0_us = 0.5, read_cost_c1_ns = 0.25"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("calibration (the model's side): read_cost_c0_us = 0.5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| criterion (throughput) |"), std::string::npos) << r.out;
}

// A same-run validation has no sim side to set: a [validate] sim table there is refused, naming the line.
TEST(PipeStudy, ASimSettingInASameRunValidationIsRefused) {
  TempDir dir;
  const fs::path file = dir / "same-run-with-sim.toml";
  write_file(file,
             "[scenario]\nname = \"x\"\nstudy = \"pipe\"\nengine = \"micro\"\n[params]\nrepo_mib = 1\n"
             "[validate]\npairs = [[\"reads\", \"same_run_sim_reads\", \"same_run_reads\"]]\n"
             "sim = { pump = \"nuprocess-epoll\" }\n");
  auto r = run_perflab("validate " + file.string());
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(":9:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a same-run validation"), std::string::npos) << r.err;
}

TEST(PipeStudy, BadParametersAreRefusedBeforeAnythingRuns) {
  TempDir dir;
  write_file(dir / "epoll.toml",
             "[scenario]\nname = \"e\"\nstudy = \"pipe\"\nengine = \"sim\"\n[network]\nlatency = \"0ms\"\n"
             "bandwidth = \"1GBps\"\n[params]\npump = \"nuprocess-epoll\"\nplatform = \"windows\"\n");
  CliResult epoll = run_perflab("run " + (dir / "epoll.toml").string());
  EXPECT_EQ(epoll.status, 2) << epoll.err;
  EXPECT_NE(epoll.err.find("nuprocess-epoll"), std::string::npos) << epoll.err;
  write_file(dir / "bad.csv", "time_s,bytes\n0,-3\n");
  CliResult trace =
      run_perflab("run " + kScenario + " --set 'params.writer=\"trace\"' --set 'params.trace=\"" +
                  (dir / "bad.csv").string() + "\"'");
  EXPECT_EQ(trace.status, 2) << trace.err;
  EXPECT_NE(trace.err.find("bad.csv:2"), std::string::npos) << trace.err;
  CliResult missing = run_perflab("run " + kScenario + " --set 'params.writer=\"trace\"' --set " +
                                  "'params.trace=\"/nonexistent/w.csv\"'");
  EXPECT_EQ(missing.status, 2) << missing.err;
  CliResult zero = run_perflab("run " + kScenario + " --set 'params.transfer_bytes=\"0B\"'");
  EXPECT_EQ(zero.status, 2) << zero.err;
  EXPECT_NE(zero.err.find("transfer_bytes"), std::string::npos) << zero.err;
  CliResult cost = run_perflab("run " + kScenario + " --set 'params.relay_cost=\"-1us\"'");
  EXPECT_EQ(cost.status, 2) << cost.err;
  EXPECT_NE(cost.err.find("relay_cost"), std::string::npos) << cost.err;
  CliResult speed =
      run_perflab("run " + kScenario + " --set 'params.writer=\"trace\"' --set params.trace_speed=0");
  EXPECT_EQ(speed.status, 2) << speed.err;
  EXPECT_NE(speed.err.find("trace_speed"), std::string::npos) << speed.err;
}

TEST(PipeStudy, TheRelayCostMovesThe64KiBCloneAsTheClosedFormSays) {
  // 48 MiB/s: t_c = 163 us per 8 KiB. 112 us of relay per packet: 2 + floor(112 / 51) = 4 packets per
  // 15.625 ms tick, 2.0 MiB/s; a free relay: 2 packets, 1.0 MiB/s.
  TempDir dir;
  CliResult r = run_perflab("run " + std::string(PERFLAB_SCENARIOS) +
                            "/pipe/seed-rate.toml --seeds 1 --set 'sweep.pack_rate=[\"48MiBps\"]' --set "
                            "'sweep.timer_resolution=[\"15.625ms\"]' --set 'sweep.relay_cost=[\"0us\", "
                            "\"112us\"]' --set 'params.transfer_bytes=\"2MiB\"' --out " +
                            dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "pipe-seed-rate.summary.csv"));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    double expected = std::stod(row.at("relay_cost")) == 0 ? 1.0 : 2.0;
    EXPECT_NEAR(std::stod(row.at("throughput_mib_s_mean")), expected, 0.03 * expected)
        << row.at("relay_cost");
  }
}

}  // namespace
}  // namespace perflab::testing
