// See run_metadata.h.
#include "sim/report/run_metadata.h"

#include <fstream>

#include <fmt/format.h>

#include "sim/gate/provenance.h"
#include "sim/text/markdown.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace fs = std::filesystem;

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
  for (const auto& [when, load] :
       {std::pair{"before", run.load_before}, std::pair{"after", run.load_after}}) {
    if (!load) continue;
    out << fmt::format("load_{} = {:.2f}\nprobe_{}_ms = {:.1f}\n", when, load->load_average, when,
                       load->probe_ms);
  }
  if (!run.uses.empty()) out << "uses = " << join(run.uses, "; ") << "\n";
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

}  // namespace perflab
