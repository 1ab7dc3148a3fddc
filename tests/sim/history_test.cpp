// `perflab history` end to end on a small git repository made here: a few commits of two headline summaries
// with known moves (a simulated figure that steps once, a commit whose CSV lacks the headline's column, a
// noisy micro-engine figure whose level changes once), then the CSV it writes is read back; the repository
// it reads (the current folder's, or --repo) and where it writes (results/ for every study, else only
// --out); and its bad input: an unknown study, a study without a headline, a folder outside git.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "tests/sim/cli_runner.h"

namespace perflab {
namespace {
namespace fs = std::filesystem;
using testing::CsvRow;
using testing::run_perflab;
using testing::TempDir;

class Repo {
 public:
  Repo() { git("init -q"); }
  const fs::path& root() const { return dir_.path(); }
  const fs::path& results() const { return results_; }
  void commit(const std::string& file, const std::string& text, const std::string& subject) {
    fs::create_directories((results_ / file).parent_path());
    testing::write_file(results_ / file, text);
    git("add -A");
    git("-c user.name=test -c user.email=test@example.org commit -q -m '" + subject + "'");
  }

 private:
  void git(const std::string& args) {
    const std::string command = "git -C '" + dir_.path().string() + "' " + args + " >/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }
  TempDir dir_;
  fs::path results_ = dir_ / "results";
};

// prefetch's headline: job time at depth 0 over depth 1 (scenarios/prefetch/page.py).
std::string prefetch_summary(double depth0, double depth1, int runs = 10) {
  return "prefetch_depth,runs,duration_s_mean\n0," + std::to_string(runs) + "," + std::to_string(depth0) +
         "\n1," + std::to_string(runs) + "," + std::to_string(depth1) + "\n";
}

// dispatcher's headline: scan over counter at n = 64,000 (scenarios/dispatcher/page.py).
std::string dispatcher_summary(double ratio) {
  return "strategy,n,runs,seconds_mean\nscan,64000,1," + std::to_string(ratio * 0.01) +
         "\ncounter,64000,1,0.01\nindexed,64000,1,0.01\n";
}

// The test process works in `folder` while this lives (perflab, which it runs, too).
class InFolder {
 public:
  explicit InFolder(const fs::path& folder) : previous_(fs::current_path()) { fs::current_path(folder); }
  ~InFolder() { fs::current_path(previous_); }

 private:
  fs::path previous_;
};

std::vector<CsvRow> rows_of(const std::vector<CsvRow>& rows, const std::string& study) {
  std::vector<CsvRow> out;
  for (const auto& row : rows)
    if (row.at("study") == study) out.push_back(row);
  return out;
}

TEST(History, MarksTheSimulatedStepAndTheMicroChangePointAndSkipsWhatItCannotRead) {
  Repo repo;
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 50), "prefetch first");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 50, 5),
              "prefetch fewer seeds");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", "prefetch_depth,runs\n0,10\n1,10\n",
              "prefetch without its metric");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 40), "prefetch the step");
  const std::vector<double> ratios = {101, 99, 100.5, 98.7, 100.2, 99.6, 402, 398, 401, 399.5, 400.8, 397};
  for (size_t k = 0; k < ratios.size(); ++k)
    repo.commit("dispatcher/dispatcher-enqueue-burst.summary.csv", dispatcher_summary(ratios[k]),
                "burst " + std::to_string(k + 1));

  // Every study: the history is the checkout's results/history.*.
  auto result = run_perflab("history --repo " + repo.root().string());
  ASSERT_EQ(result.status, 0) << result.err;
  const auto rows = testing::parse_csv(testing::read_file(repo.results() / "history.csv"));
  EXPECT_TRUE(fs::exists(repo.results() / "history.html"));

  const auto prefetch = rows_of(rows, "prefetch");
  ASSERT_EQ(prefetch.size(), 4u);
  EXPECT_EQ(prefetch[0].at("subject"), "prefetch first");
  EXPECT_EQ(prefetch[0].at("value"), "2");
  EXPECT_EQ(prefetch[0].at("engine"), "sim");
  EXPECT_EQ(prefetch[0].at("figure"), "job time, depth 0 / depth 1");
  EXPECT_EQ(prefetch[1].at("change"), "");  // same figure, another column moved
  EXPECT_EQ(prefetch[2].at("value"), "");   // skipped, with the reason
  EXPECT_NE(prefetch[2].at("note").find("duration_s_mean"), std::string::npos) << prefetch[2].at("note");
  EXPECT_EQ(prefetch[3].at("subject"), "prefetch the step");
  EXPECT_EQ(prefetch[3].at("change"), "step");
  EXPECT_EQ(prefetch[3].at("before"), "2");
  EXPECT_EQ(prefetch[3].at("after"), "2.5");

  const auto dispatcher = rows_of(rows, "dispatcher");
  ASSERT_EQ(dispatcher.size(), ratios.size());
  EXPECT_EQ(dispatcher[0].at("engine"), "micro");
  for (size_t k = 0; k < dispatcher.size(); ++k)
    EXPECT_EQ(dispatcher[k].at("change"), k == 6 ? "change point" : "") << dispatcher[k].at("subject");
  EXPECT_NEAR(std::stod(dispatcher[6].at("before")), 99.83, 0.01);
  EXPECT_NEAR(std::stod(dispatcher[6].at("after")), 399.7167, 0.01);
  EXPECT_LE(std::stod(dispatcher[6].at("pvalue")), 0.001);

  EXPECT_NE(result.out.find("step"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("burst 7"), std::string::npos) << result.out;
}

TEST(History, RefusesAnUnknownStudyAStudyWithoutHeadlineAndAFolderOutsideGit) {
  Repo repo;
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 50), "first");
  const std::string in_repo = " --repo " + repo.root().string();
  auto unknown = run_perflab("history nosuchstudy" + in_repo);
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown study \"nosuchstudy\""), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("prefetch"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_perflab("history pingpong" + in_repo).status, 2);  // no headline figure

  TempDir plain;
  fs::create_directories(plain / "results");
  {
    InFolder inside(plain.path());
    auto outside = run_perflab("history");
    EXPECT_EQ(outside.status, 2);
    EXPECT_NE(outside.err.find(plain.path().string() + " is not in a git repository"), std::string::npos)
        << outside.err;
  }
  auto given = run_perflab("history --repo " + plain.path().string());
  EXPECT_EQ(given.status, 2);
  EXPECT_NE(given.err.find("is not in a git repository"), std::string::npos) << given.err;
  EXPECT_FALSE(fs::exists(plain / "results" / "history.csv"));
  auto missing = run_perflab("history --repo " + (plain / "no-such-folder").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("is not a folder"), std::string::npos) << missing.err;
  Repo other;  // a repository, but not a checkout of perflab
  auto no_results = run_perflab("history --repo " + other.root().string());
  EXPECT_EQ(no_results.status, 2);
  EXPECT_NE(no_results.err.find("has no results/ folder"), std::string::npos) << no_results.err;
}

// Run in a checkout (here a subfolder of it), history reads that checkout's git and writes its results/,
// not the checkout perflab was built in.
TEST(History, ReadsTheRepositoryOfTheCurrentFolder) {
  Repo repo;
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 50), "here first");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 40), "here the step");
  InFolder inside(repo.results() / "prefetch");
  auto result = run_perflab("history");
  ASSERT_EQ(result.status, 0) << result.err;
  const auto prefetch =
      rows_of(testing::parse_csv(testing::read_file(repo.results() / "history.csv")), "prefetch");
  ASSERT_EQ(prefetch.size(), 2u);
  EXPECT_EQ(prefetch[1].at("subject"), "here the step");
  EXPECT_NE(
      result.out.find("prefetch: job time, depth 0 / depth 1 (sim engine, prefetch-jgit-clone): 2 commits"),
      std::string::npos)
      << result.out;
}

// A shallow clone holds only some commits: history reads them and says so.
TEST(History, AShallowCloneIsReadAndSaidToBeOne) {
  Repo repo;
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 50), "first");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 40), "the step");
  TempDir clone;
  const std::string command = "git clone -q --depth 1 'file://" + repo.root().string() + "' '" +
                              (clone / "c").string() + "' 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  auto result = run_perflab("history prefetch --repo " + (clone / "c").string());
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.err.find((clone / "c").string() + " is a shallow clone"), std::string::npos) << result.err;
  EXPECT_NE(result.out.find("1 commits changed it"), std::string::npos) << result.out;
}

// results/history.* hold every study's history (the maintainer's step writes them): a history of one study
// is printed, and written only where --out says; a study named twice is one study.
TEST(History, OneStudyIsWrittenOnlyToOutAndNamedTwiceCountsOnce) {
  Repo repo;
  repo.commit("history.csv", "the committed history\n", "the maintainer step");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 50), "first");
  repo.commit("prefetch/prefetch-jgit-clone.summary.csv", prefetch_summary(100, 40), "the step");
  const std::string in_repo = " --repo " + repo.root().string();

  auto printed = run_perflab("history prefetch" + in_repo);
  ASSERT_EQ(printed.status, 0) << printed.err;
  EXPECT_NE(printed.out.find("2 commits changed it"), std::string::npos) << printed.out;
  EXPECT_NE(printed.err.find("give --out DIR to write the history of prefetch"), std::string::npos)
      << printed.err;
  EXPECT_EQ(testing::read_file(repo.results() / "history.csv"), "the committed history\n");
  EXPECT_FALSE(fs::exists(repo.results() / "history.html"));

  TempDir out;
  auto twice = run_perflab("history prefetch prefetch" + in_repo + " --out " + (out / "h").string());
  ASSERT_EQ(twice.status, 0) << twice.err;
  EXPECT_NE(twice.out.find("2 commits changed it"), std::string::npos) << twice.out;
  const auto rows = testing::parse_csv(testing::read_file(out / "h" / "history.csv"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows_of(rows, "prefetch").size(), 2u);
  EXPECT_TRUE(fs::exists(out / "h" / "history.html"));
  EXPECT_EQ(testing::read_file(repo.results() / "history.csv"), "the committed history\n");
}

TEST(History, HelpExplainsTheCommand) {
  auto help = run_perflab("history --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("change point"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace perflab
