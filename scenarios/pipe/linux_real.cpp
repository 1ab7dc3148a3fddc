// Micro-engine driver of the pipe study: the real Linux pump (models/pipe/real_pump.h) reading a real git
// child (pack-objects or upload-pack over a repository made by make_repo.sh) through a pipe of `pipe_buffer`
// bytes; only the child's run and the pump are timed. The control experiment: the seed says Linux shows no
// penalty at 64 KiB.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "models/pipe/real_git.h"
#include "scenarios/pipe/pipe_study.h"
#include "sim/scenario.h"

namespace perflab::pipe_study {
namespace {

// The generated repository is kept under the temp folder between points and runs (same size, same bytes).
Result<std::pair<std::filesystem::path, std::string>> repository(int size_mib) {
  auto dir = std::filesystem::temp_directory_path() /
             ("perflab-pipe-repo-" + std::to_string(size_mib) + "mib-" + std::to_string(getuid()));
  auto marker = dir / "perflab-head";
  if (std::ifstream in(marker); in) {
    std::string head;
    in >> head;
    if (head.size() == 40) return std::make_pair(dir / "repo", head);
  }
  auto head = pipe::make_repo(scenarios_dir() / "pipe" / "make_repo.sh", dir / "repo", size_mib);
  if (!head.ok()) return head.status();
  std::ofstream(marker) << *head << "\n";
  return std::make_pair(dir / "repo", *head);
}

}  // namespace

Result<MicroWorkload> setup_linux_real(const Params& params) {
  const int size_mib = static_cast<int>(params.integer("repo_mib"));
  const size_t pipe_size = static_cast<size_t>(params.real("pipe_buffer"));
  const std::string child = params.string("real_child");
  auto options = std::make_shared<pipe::RealPumpOptions>();
  MicroWorkload micro;
  micro.set_up = [=]() {
    if (!options->argv.empty()) return Status::OK();
    auto repo = repository(size_mib);
    if (!repo.ok()) return repo.status();
    *options = child == "upload-pack" ? pipe::upload_pack_child(repo->first, repo->second)
                                      : pipe::pack_objects_child(repo->first);
    options->pipe_size = pipe_size;
    options->read_size = pipe::kNuProcessBufferCapacity;
    options->timeout_s = 300;
    return Status::OK();
  };
  micro.run = [options]() {
    auto r = pipe::run_real_pump(*options);
    if (!r.ok() || !r->exited || r->exit_status != 0) return Metrics{{"failed", 1}};
    return Metrics{{"bytes", static_cast<double>(r->bytes)},
                   {"reads", static_cast<double>(r->reads)},
                   {"pipe_size_set", static_cast<double>(r->pipe_size)}};
  };
  micro.report = [](double seconds, const Metrics& counters) {
    auto get = [&](const char* name) { return counters.count(name) != 0 ? counters.at(name) : 0.0; };
    return Metrics{{"throughput_mib_s", get("bytes") / seconds / kMiB},
                   {"seconds", seconds},
                   {"bytes", get("bytes")},
                   {"reads", get("reads")},
                   {"pipe_size_set", get("pipe_size_set")},
                   {"failed", get("failed")}};
  };
  return micro;
}

std::string linux_real_report(const RunTable& table) {
  std::string out = "### Real Linux pump (epoll, 64 KiB reads) on real git, MiB/s (median)\n\n";
  out +=
      "| child | pipe asked | pipe set by the kernel | MiB/s | reads per run |\n|---|---:|---:|---:|---:|\n";
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    auto mib = table.values(p, "throughput_mib_s");
    auto set = table.values(p, "pipe_size_set");
    auto reads = table.values(p, "reads");
    if (mib.empty()) continue;
    char row[256];
    std::snprintf(row, sizeof(row), "| %s | %s | %.0f | %.1f | %.0f |\n",
                  table.params(p).string("real_child").c_str(), table.column_label(p, "pipe_buffer").c_str(),
                  set[0], mib[0], reads[0]);
    out += row;
  }
  // The seed's claim, per child: no penalty at 64 KiB. On a shared machine the repetitions spread widely, so
  // 64 KiB counts as penalised only if its repetitions and the fastest size's do not overlap at all: its best
  // is slower than the fastest size's worst.
  struct Child {
    double best_median = 0;
    double fastest_worst = 0;  // MiB/s of the slowest repetition of the size with the best median
    double best_64k = 0;       // MiB/s of 64 KiB's fastest repetition
  };
  std::map<std::string, Child> children;
  auto rates = [&table](size_t point, double bytes) {
    std::vector<double> out;
    for (const RunRow& row : table.rows) {
      if (row.point != point) continue;
      for (double seconds : row.repetitions) out.push_back(bytes / seconds / kMiB);
    }
    return out;
  };
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    auto mib = table.values(p, "throughput_mib_s");
    auto bytes = table.values(p, "bytes");
    if (mib.empty() || bytes.empty()) continue;
    Child& child = children[table.params(p).string("real_child")];
    std::vector<double> runs = rates(p, bytes[0]);
    if (runs.empty()) continue;
    if (mib[0] > child.best_median) {
      child.best_median = mib[0];
      child.fastest_worst = *std::min_element(runs.begin(), runs.end());
    }
    if (table.params(p).real("pipe_buffer") == 65536)
      child.best_64k = *std::max_element(runs.begin(), runs.end());
  }
  out += "\n";
  for (const auto& [name, child] : children) {
    if (child.best_64k <= 0) continue;
    char line[320];
    std::snprintf(
        line, sizeof(line),
        "- %s: 64 KiB's best repetition %.0f MiB/s, the fastest size's (median %.0f) worst %.0f MiB/s: "
        "%s.\n",
        name.c_str(), child.best_64k, child.best_median, child.fastest_worst,
        child.best_64k >= child.fastest_worst ? "no penalty at 64 KiB (the seed's claim holds)"
                                              : "a penalty at 64 KiB beyond the noise");
    out += line;
  }
  out +=
      "\nWall-clock medians of real processes on a shared 2-core machine: the spread between repetitions is "
      "wide (see pipe-linux-real.repetitions.csv), so only the verdicts above are meant, not the ranking.\n";
  return out;
}

}  // namespace perflab::pipe_study
