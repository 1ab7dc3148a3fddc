// `perflab history [STUDY...]`: when and why did a headline figure move? Each study's headline figure (the
// front page's ratio, computed by its scenarios/<study>/page.py) at every commit that changed the summary it
// reads, from git alone: analysis/python/history.py reads the commits and computes the figures; here a
// simulated figure's moves are marked as steps (the sim is deterministic: any move is real) and a
// micro-engine figure's as change points (sim/stats/change_points.h: its timings are noisy); then
// results/history.csv is written and history.py draws results/history.html from it. The repository is the
// one of the current folder (or --repo DIR), not the checkout perflab was built in; results/history.*
// hold every study's history, so a history of some studies is written only where --out says.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/cli/child_process.h"
#include "sim/cli/commands.h"
#include "sim/gate/check.h"
#include "sim/gate/results_reader.h"
#include "sim/report/python_renderer.h"
#include "sim/scenario/source_tree.h"
#include "sim/stats/change_points.h"
#include "sim/study/study.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

// A row of the CSV history.py writes (study, scenario, engine, figure, seed, commit, date, subject, value,
// note; a row per study × commit) as column -> text; this command adds what moved.
using Row = CsvMap;
const std::vector<std::string> kHistoryColumns = {"study",  "scenario", "engine",  "figure", "seed",
                                                  "commit", "date",     "subject", "value",  "change",
                                                  "before", "after",    "pvalue",  "note"};

// The studies with a headline figure: those whose scenarios/<study>/page.py the site reads.
std::vector<std::string> headline_studies() {
  std::vector<std::string> names;
  for (const Study* study : all_studies()) {
    if (fs::exists(source_dir() / "scenarios" / study->name / "page.py")) names.push_back(study->name);
  }
  return names;
}

// What `git -C folder ARGS...` prints on stdout, without its last line break; nothing if git fails.
// git's output, and whether it succeeded; `with_errors` adds its stderr (to say why it failed).
std::pair<bool, std::string> run_git(const fs::path& folder, const std::vector<std::string>& args,
                                     bool with_errors) {
  std::vector<std::string> argv = {"git", "-C", folder.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  FILE* git = popen((shell_words(argv) + (with_errors ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  if (git == nullptr) return {false, ""};
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, git)) > 0;) text.append(buffer, n);
  const bool ok = pclose(git) == 0;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return {ok, text};
}

std::optional<std::string> git_output(const fs::path& folder, const std::vector<std::string>& args) {
  auto [ok, text] = run_git(folder, args, false);
  if (!ok) return std::nullopt;
  return text;
}

bool moved(double before, double after) {
  return std::fabs(after - before) >
         kDefaultRelativeTolerance * std::max(std::fabs(before), std::fabs(after));
}

// Marks one study's rows (oldest first): "step" where a simulated figure moved, "change point" where a
// micro-engine figure's level changed. Rows without a value (skipped commits) are left out of the series.
void mark_changes(std::vector<Row*>& rows) {
  std::vector<Row*> valued;
  std::vector<double> series;
  for (Row* row : rows) {
    if (row->at("value").empty()) continue;
    valued.push_back(row);
    series.push_back(std::stod(row->at("value")));
    (*row)["value"] = format_number(series.back());  // as every number this command writes
    if (!row->at("seed").empty()) (*row)["seed"] = format_number(std::stod(row->at("seed")));
  }
  if (valued.empty()) return;
  if (valued.front()->at("engine") == "micro") {
    for (const auto& point : stats::change_points(series)) {
      Row& row = *valued[point.index];
      row["change"] = "change point";
      row["before"] = format_number(point.mean_before);
      row["after"] = format_number(point.mean_after);
      row["pvalue"] = format_number(point.pvalue);
    }
    return;
  }
  for (size_t k = 1; k < series.size(); ++k) {
    if (!moved(series[k - 1], series[k])) continue;
    Row& row = *valued[k];
    row["change"] = "step";
    row["before"] = format_number(series[k - 1]);
    row["after"] = format_number(series[k]);
  }
}

Status write_history(const std::vector<Row>& rows, const fs::path& file) {
  std::ofstream out(file);
  out << csv_line(kHistoryColumns);
  for (const Row& row : rows) {
    std::vector<std::string> fields;
    for (const auto& column : kHistoryColumns) {
      auto it = row.find(column);
      fields.push_back(it == row.end() ? "" : it->second);
    }
    out << csv_line(fields);
  }
  if (!out) return Status::Error(file.string() + ": cannot write");
  return Status::OK();
}

std::string short_number(const std::string& text) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", std::stod(text));
  return buffer;
}

// What moved, per study, on stdout (numbers to 6 digits, subjects cut to 100 characters; the CSV has all).
void print_summary(const std::string& study, const std::vector<Row*>& rows) {
  const Row& last = *rows.back();
  const bool micro = last.at("engine") == "micro";
  std::printf("%s: %s (%s engine, %s): %zu commits changed it\n", study.c_str(), last.at("figure").c_str(),
              last.at("engine").c_str(), last.at("scenario").c_str(), rows.size());
  size_t changes = 0;
  std::vector<std::string> values;
  for (const Row* row : rows) {
    const std::string head = row->at("commit").substr(0, 12) + " " + row->at("date").substr(0, 10);
    const std::string subject = row->at("subject").substr(0, 100);
    if (!row->at("value").empty()) values.push_back(short_number(row->at("value")));
    if (row->count("change")) {
      ++changes;
      std::string p = row->count("pvalue") ? " (p = " + short_number(row->at("pvalue")) + ")" : "";
      std::printf("  %s at %s: %s -> %s%s  %s\n", row->at("change").c_str(), head.c_str(),
                  short_number(row->at("before")).c_str(), short_number(row->at("after")).c_str(), p.c_str(),
                  subject.c_str());
    } else if (row->at("value").empty()) {
      std::printf("  skipped %s: %s\n", head.c_str(), row->at("note").c_str());
    }
  }
  if (changes == 0)
    std::printf("  %s; its values, oldest first: %s\n",
                micro ? "no change point (p <= 0.001, corrected for the choice of the split)" : "never moved",
                join(values).c_str());
}

}  // namespace

int cmd_history(const std::vector<std::string>& studies_asked, const std::string& repo,
                const std::string& out) {
  const auto known = headline_studies();
  std::vector<std::string> studies;  // as asked, each once
  for (const auto& study : studies_asked) {
    if (std::find(known.begin(), known.end(), study) == known.end())
      return fail_input("history: unknown study \"" + study +
                        "\", expected one with a headline figure: " + join(known));
    if (std::find(studies.begin(), studies.end(), study) == studies.end()) studies.push_back(study);
  }
  const bool every_study = studies.empty() || studies.size() == known.size();
  if (studies.empty()) studies = known;

  std::error_code error;
  const fs::path folder = repo.empty() ? fs::current_path(error) : fs::path(repo);
  if (!repo.empty() && !fs::is_directory(folder, error))
    return fail_input("history: --repo " + repo + " is not a folder, expected a git checkout of perflab");
  auto top_text = git_output(folder, {"rev-parse", "--show-toplevel"});
  if (!top_text || top_text->empty()) {
    // git's own first line says why: no repository, or one it refuses (another user's).
    std::string why = run_git(folder, {"rev-parse", "--show-toplevel"}, true).second;
    why = why.substr(0, why.find('\n'));
    return fail_input("history: " + folder.string() + " is not in a git repository that git will read" +
                      (why.empty() ? "" : " (git: " + why + ")") +
                      ": history reads the committed results from git; run it in a checkout of perflab or "
                      "give --repo DIR");
  }
  const fs::path top = *top_text;
  if (git_output(top, {"rev-parse", "--is-shallow-repository"}) == std::optional<std::string>("true")) {
    std::fprintf(stderr,
                 "history: note: %s is a shallow clone: only the commits it holds are read (`git fetch "
                 "--unshallow` fetches the others)\n",
                 top.string().c_str());
  }
  const fs::path results = top / "results";
  if (!fs::is_directory(results, error))
    return fail_input("history: " + top.string() + " has no results/ folder, expected a checkout of perflab");
  // results/history.* hold every study's history: a history of some studies is written only to --out.
  std::optional<fs::path> written_to;
  if (!out.empty()) {
    fs::create_directories(out, error);
    if (!fs::is_directory(out, error))
      return fail_input("history: --out " + out + ": cannot make the folder");
    written_to = fs::path(out);
  } else if (every_study) {
    written_to = results;
  }

  const fs::path figures =
      fs::temp_directory_path() / ("perflab-history-" + std::to_string(getpid()) + ".csv");
  std::vector<std::string> args = {"figures", results.string(), (source_dir() / "scenarios").string(),
                                   figures.string()};
  args.insert(args.end(), studies.begin(), studies.end());
  Status computed = run_python("history.py", args,
                               "each commit's headline figures; needs git and /usr/bin/python3 "
                               "with pandas and markdown");
  auto rows = computed.ok() ? read_csv_maps(figures) : Result<std::vector<Row>>(computed);
  fs::remove(figures);
  if (!rows.ok()) {
    std::fprintf(stderr, "perflab: error: history: %s\n", rows.status().message().c_str());
    return kExitFailedRuns;
  }

  std::vector<Row> table = std::move(rows).value();
  std::map<std::string, std::vector<Row*>> by_study;
  for (Row& row : table) by_study[row.at("study")].push_back(&row);
  for (const auto& study : studies) {
    auto it = by_study.find(study);
    if (it == by_study.end()) {
      std::printf("%s: no commit holds its headline's summary\n", study.c_str());
      continue;
    }
    mark_changes(it->second);
    print_summary(study, it->second);
  }
  std::fflush(stdout);  // before the page's script writes anything
  if (!written_to) {
    std::fprintf(stderr,
                 "history: nothing written: results/history.csv and .html hold every study's history; give "
                 "--out DIR to write the history of %s\n",
                 join(studies).c_str());
    return 0;
  }
  const fs::path csv = *written_to / "history.csv", html = *written_to / "history.html";
  Status written = write_history(table, csv);
  if (written.ok())
    written = run_python("history.py", {"page", csv.string(), html.string()}, "results/history.html");
  if (!written.ok()) {
    std::fprintf(stderr, "perflab: error: history: %s\n", written.message().c_str());
    return kExitFailedRuns;
  }
  std::fprintf(stderr, "history: wrote %s and %s\n", csv.string().c_str(), html.string().c_str());
  return 0;
}

}  // namespace perflab
