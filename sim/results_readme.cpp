// See results_readme.h.
#include "sim/results_readme.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "sim/markdown.h"
#include "sim/provenance.h"
#include "sim/results_site.h"
#include "sim/study.h"
#include "sim/value_format.h"

namespace perflab {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> files_in(const fs::path& dir, const std::string& prefix, const std::string& suffix) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// One scenario's part: its run record (if `reproduce` wrote one), its report or summary, its plots.
std::string section(const fs::path& study_dir, const std::string& name) {
  std::string out = "### " + name + "\n\n";
  fs::path meta_file = study_dir / (name + ".meta");
  if (fs::exists(meta_file)) {
    auto meta = read_meta(meta_file);
    std::string host = meta.count("host") ? meta["host"] : meta["machine"];
    std::string commit = meta.count("commit") ? meta["commit"].substr(0, 12) : "";
    out += "Scenario `scenarios/" + meta["file"] + "`, " + meta["engine"] + " engine, " + meta["seeds"] +
           " seed(s), " +
           (meta.count("interrupted") ? "interrupted: " + meta["interrupted"] : meta["runs"] + " runs") +
           " in " + meta["wall_s"] + " s on " + host + " (" +
           meta["date"] + ")" +
           (commit.empty() ? std::string()
                           : ", commit `" + commit + "`" +
                                 (meta["dirty"] == "true" ? " with uncommitted changes" : "")) +
           ".\n\n";
  } else {
    out +=
        "(No run record: these results come from a run made before `perflab reproduce` kept one; "
        "`perflab reproduce --full` rewrites them.)\n\n";
  }
  fs::path report = study_dir / (name + ".report.md");
  fs::path summary = study_dir / (name + ".md");
  out += read_text(fs::exists(report) ? report : summary) + "\n";
  for (const auto& png : files_in(study_dir, name + ".", ".png")) {
    std::string relative = study_dir.filename().string() + "/" + png.filename().string();
    out += "![" + png.stem().string() + "](" + relative + ")\n\n";
  }
  return out;
}

}  // namespace

std::string interrupted_text(size_t runs, size_t planned_runs) {
  return fmt::format("{} of {} runs", runs, planned_runs);
}

Status write_run_metadata(const fs::path& study_dir, const ReproducedScenario& run) {
  fs::path file = study_dir / (run.name + ".meta");
  std::ofstream out(file);
  out << "name = " << run.name << "\nstudy = " << run.study << "\nfile = " << run.file
      << "\ndescription = " << run.description << "\nengine = " << run.engine << "\nseeds = " << run.seeds
      << "\nruns = " << run.runs << "\nplanned_runs = " << run.planned_runs
      << "\nwall_s = " << fmt::format("{:.1f}", run.wall_s) << "\n";
  if (run.interrupted) out << "interrupted = " << interrupted_text(run.runs, run.planned_runs) << "\n";
  for (const auto& [when, load] : {std::pair{"before", run.load_before}, std::pair{"after", run.load_after}}) {
    if (!load) continue;
    out << fmt::format("load_{} = {:.2f}\nprobe_{}_ms = {:.1f}\n", when, load->load_average, when, load->probe_ms);
  }
  for (const auto& [key, value] : current_provenance().fields()) out << key << " = " << value << "\n";
  return out ? Status::OK() : Status::Error(file.string() + ": cannot write");
}

std::string timing_table(const std::vector<ReproducedScenario>& runs) {
  MarkdownTable table({"scenario", "engine", "runs", "wall time"}, "llrr");
  double total = 0;
  for (const auto& run : runs) {
    table.add({run.name, run.engine, std::to_string(run.runs), fmt::format("{:.1f} s", run.wall_s)});
    total += run.wall_s;
  }
  table.add({"**all**", "", "", fmt::format("{:.1f} s", total)});
  return table.str();
}

Status write_results_readme(const fs::path& results) {
  std::string out =
      "# perflab results\n\n"
      "Written by `perflab reproduce` (`scripts/reproduce`); `perflab check` compares fresh runs with the "
      "CSV "
      "files here. Each study: what was run, the headline table beside the seed's published numbers "
      "(`scenarios/<study>/reference.csv`), the plots, the ratios and what matches and what does not.\n\n";
  std::vector<fs::path> study_dirs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(results, ec)) {
    if (entry.is_directory()) study_dirs.push_back(entry.path());
  }
  std::sort(study_dirs.begin(), study_dirs.end());
  for (const auto& dir : study_dirs) {
    auto summaries = files_in(dir, "", ".summary.csv");
    if (summaries.empty()) continue;
    std::string study = dir.filename().string();
    const Study* spec = find_study(study);
    out += "## " + study + "\n\n" + (spec != nullptr ? spec->description + "\n\n" : "");
    for (const auto& summary : summaries) {
      std::string file = summary.filename().string();
      out += section(dir, file.substr(0, file.size() - std::string(".summary.csv").size()));
    }
  }
  std::ofstream file(results / "README.md");
  file << out;
  if (!file) return Status::Error((results / "README.md").string() + ": cannot write");
  return write_results_site(results);
}

}  // namespace perflab
