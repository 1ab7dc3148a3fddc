// `perflab calibrate` and `validate`'s reading of its file, through the binary on a tiny prefetch
// calibration (two points, 1 ms delays: about a second): the fit is printed with its method, points and
// residuals and written where validate looks; the constant is typed in one place only.
#include <gtest/gtest.h>

#include <regex>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {
namespace fs = std::filesystem;

const std::string kInputs = "trace = \"" PERFLAB_SCENARIOS
                            "/prefetch/data/jgit-clone.classload.log\"\n"
                            "classpath = [\"" PERFLAB_SCENARIOS "/prefetch/data/jgit-clone.classpath\"]\n";

// PERFLAB_SCENARIOS with a prefetch validate.toml (typing `typed` in its [validate]) whose calibration
// scenario is two warm-cache points at constant 1 ms delays; PERFLAB_RESULTS empty.
struct TinyStudy {
  TempDir dir;
  std::map<std::string, std::string> env;
  explicit TinyStudy(const std::string& typed = "") {
    fs::create_directories(dir / "scenarios" / "prefetch");
    // the study's default trace and classpath are read from its scenarios folder
    fs::create_directory_symlink(fs::path(PERFLAB_SCENARIOS) / "prefetch" / "data",
                                 dir / "scenarios" / "prefetch" / "data");
    fs::create_directories(dir / "results");
    write_file(dir / "scenarios" / "prefetch" / "calibrate.toml",
               "[scenario]\nname = \"tiny-calibrate\"\nstudy = \"prefetch\"\nengine = \"real\"\nseeds = 1\n"
               "seed = 101\n[network]\nlatency = \"constant(0.2ms)\"\nbandwidth = \"100MBps\"\n[params]\n"
               "rpc_delay = \"constant(1ms)\"\njar_cache = \"warm\"\n" +
                   kInputs + "[sweep]\nprefetch_depth = [4, 20]\n");
    write_file(dir / "scenarios" / "prefetch" / "validate.toml",
               "[scenario]\nname = \"tiny-validate\"\nstudy = \"prefetch\"\nengine = \"real\"\nseeds = 1\n"
               "[network]\nlatency = \"constant(0.2ms)\"\nbandwidth = \"100MBps\"\n[params]\n"
               "rpc_delay = \"uniform(0ms, 1ms)\"\n" +
                   kInputs + "[sweep]\nprefetch_depth = [0, 1]\n[validate]\n" + typed +
                   "calibration_scenario = \"" +
                   (dir / "scenarios" / "prefetch" / "calibrate.toml").string() + "\"\n");
    env = {{"PERFLAB_SCENARIOS", (dir / "scenarios").string()},
           {"PERFLAB_RESULTS", (dir / "results").string()}};
  }
};

TEST(Calibrate, FitsPrintsAndWritesTheFileValidateReads) {
  TinyStudy study;
  auto r = run_perflab("calibrate prefetch", study.env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find("method: exchange_overhead = median over runs of (real duration_s - sim duration_s) / rpcs"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| prefetch_depth=4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("residuals over 2 points"), std::string::npos) << r.out;
  const fs::path file = study.dir / "results" / "prefetch" / "tiny-calibrate.calibration.toml";
  const std::string toml = read_file(file);
  EXPECT_NE(toml.find("exchange_overhead = { value = "), std::string::npos) << toml;
  EXPECT_NE(read_file(fs::path(file).replace_extension(".csv")).find("prefetch_depth=4"), std::string::npos);
  // The sim ran at this machine's wake-up, probed before the real runs: recorded as measured, not fitted.
  EXPECT_NE(r.err.find("probing this machine's wake-up at 2 points"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("measured, not fitted: wake_up = "), std::string::npos) << r.out;
  EXPECT_NE(toml.find("[measured]\nwake_up = { low = "), std::string::npos) << toml;
  EXPECT_EQ(read_file(fs::path(file).replace_extension(".csv"))
                .rfind("point,wake_up_s,measured,fitted,log_error\n", 0),
            0u);
  // Re-derived: it says how far the constant moved from the committed file, and how well the committed
  // constant fits the new runs against its own.
  auto again = run_perflab("calibrate prefetch", study.env);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_TRUE(
      std::regex_search(again.out, std::regex(R"(\(committed [0-9.]+: (moved [-+][0-9.]+%|unchanged)\))")))
      << again.out;
  EXPECT_TRUE(std::regex_search(
      again.out, std::regex(R"(the committed constants on these runs: mean \|ln\| [0-9.]+, max [0-9.]+, )"
                            R"(against their own fit's max [0-9.]+: (re-derived|\*\*not re-derived))")))
      << again.out;
  // ... and the file written records that verdict, as printed.
  const std::string rewritten = read_file(file);
  const bool printed = again.out.find(": re-derived (within its residual)") != std::string::npos;
  EXPECT_NE(
      rewritten.find("[rederivation]\ncommitted = 'results/prefetch/tiny-calibrate.calibration.toml'\n"),
      std::string::npos)
      << rewritten;
  EXPECT_NE(rewritten.find(printed ? "verdict = \"re-derived\"" : "verdict = \"not re-derived\""),
            std::string::npos)
      << rewritten;
}

// --windows 2: the runs made twice, one fit on both, every residual naming its window, the file saying how.
TEST(Calibrate, WindowsPoolEveryWindowsRunsIntoOneFit) {
  TinyStudy study;
  auto r = run_perflab("calibrate prefetch --windows 2 --gap 0", study.env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("residuals over 4 points"), std::string::npos) << r.out;
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex(R"(prefetch_depth=20, seed 101, window 2 of 2, \d\d:\d\d UTC)")))
      << r.out;
  EXPECT_NE(r.out.find("windows: 2 windows 0 s apart, starting "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("calibrate: window 2 of 2 in 0 s"), std::string::npos) << r.err;
  const fs::path file = study.dir / "results" / "prefetch" / "tiny-calibrate.calibration.toml";
  EXPECT_NE(read_file(file).find("windows = \"2 windows 0 s apart, starting "), std::string::npos)
      << read_file(file);
  // Before the next run: one window of the committed run's time, and what three windows make of it.
  auto next = run_perflab("calibrate prefetch --windows 3 --gap 0", study.env);
  ASSERT_EQ(next.status, 0) << next.err;
  EXPECT_TRUE(
      std::regex_search(next.err, std::regex(R"(the committed calibrations' runs took \d+ s a window, )"
                                             R"(so 3 windows 0 s apart about \d+ s)")))
      << next.err;
}

TEST(Calibrate, WindowsMustBeAtLeastOne) {
  TinyStudy study;
  auto r = run_perflab("calibrate prefetch --windows 0", study.env);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--windows"), std::string::npos) << r.err;
}

// A committed calibration of other constants (the model changed since) is said to be not comparable, and
// the new fit is still written.
TEST(Calibrate, ACommittedFileOfOtherConstantsIsNotScoredAndIsReplaced) {
  TinyStudy study;
  const fs::path file = study.dir / "results" / "prefetch" / "tiny-calibrate.calibration.toml";
  fs::create_directories(file.parent_path());
  write_file(file, "[constants]\nold_overhead = { value = 0.2, unit = \"ms\" }\n");
  write_file(fs::path(file).replace_extension(".csv"), "point,measured,fitted,log_error\n\"a\",1,1,0\n");
  auto r = run_perflab("calibrate prefetch", study.env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("cannot be scored on these runs, its constants are not this fit's"), std::string::npos)
      << r.out;
  EXPECT_NE(read_file(file).find("exchange_overhead = { value = "), std::string::npos);
}

TEST(Calibrate, ValidateWithoutTheCommittedFileIsRefusedBeforeRunning) {
  TinyStudy study;
  auto r = run_perflab("validate prefetch", study.env);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no committed calibration"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("perflab calibrate prefetch"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("real passes"), std::string::npos) << r.err;
}

TEST(Calibrate, AConstantTypedTwiceIsRefused) {
  TinyStudy study("calibration = { exchange_overhead = \"0.19ms\" }\n");
  fs::create_directories(study.dir / "results" / "prefetch");
  write_file(study.dir / "results" / "prefetch" / "tiny-calibrate.calibration.toml",
             "[constants]\nexchange_overhead = { value = 0.2, unit = \"ms\" }\n");
  auto r = run_perflab("validate prefetch", study.env);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the calibration is typed twice"), std::string::npos) << r.err;
}

TEST(Calibrate, AStudyWithoutAFitIsBadInput) {
  auto r = run_perflab("calibrate pingpong");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("study \"pingpong\" has no calibration fit"), std::string::npos) << r.err;
}

// An --out that cannot take the result is refused before the first real run (it was found only after
// minutes of runs): exit 2 in well under the calibration's time, and no run made.
TEST(Calibrate, AnOutputFolderThatCannotBeWrittenIsRefusedBeforeRunning) {
  TinyStudy study;
  write_file(study.dir / "file", "");
  auto r = run_perflab("calibrate prefetch --out " + (study.dir / "file" / "sub").string(), study.env);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("cannot create the output folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("points x"), std::string::npos) << "a run started: " << r.err;
}

}  // namespace
}  // namespace perflab::testing
