// The headline report of the `pipe` study: the seed-shaped table (pump, MiB/s, time for the whole 480.51 MiB
// clone) under each mechanism side by side, beside the seed's numbers (scenarios/pipe/reference.csv), and
// which explanation reproduces the three observations: 64 KiB slow, 4,120 as fast as the JDK, Linux fast.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "scenarios/pipe/pipe_study.h"
#include "sim/markdown.h"
#include "sim/reference.h"
#include "sim/stats/stats.h"
#include "sim/value_format.h"

namespace perflab::pipe_study {
namespace {

const char* const kCases[] = {"jdk", "nuprocess-2.0.1", "nuprocess-2.0.2", "linux", "jdk-64k"};

struct Cell {
  stats::Summary throughput{};  // MiB/s over the seeds
  bool present = false;
  double mean() const { return throughput.mean; }
};

// The interval only when it is over half a percent of the mean (the timer phase moves the rest).
std::string mib_s(const Cell& c) {
  if (!c.present) return "—";
  double half = (c.throughput.ci95_high - c.throughput.ci95_low) / 2;
  if (half > 0.005 * c.mean()) return mean_plus_minus(c.throughput, "{:.2f}", "{:.2f}");
  return fmt::format("{:.2f}", c.mean());
}

std::string clone_time(const Cell& c, double transfer_mib) {
  if (!c.present || c.mean() <= 0) return "—";
  double s = transfer_mib / c.mean();
  return s >= 120 ? fmt::format("{:.1f} min", s / 60) : fmt::format("{:.1f} s", s);
}

}  // namespace

// phase.toml: per case, the mean throughput over pack_rate (rows) x pipe_buffer (columns).
std::string phase_report(const RunTable& table) {
  std::vector<std::string> cases, rates, sizes;
  std::map<std::string, std::map<std::string, std::map<std::string, double>>> mean;  // case, rate, size
  auto remember = [](std::vector<std::string>& list, const std::string& value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
  };
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    std::vector<double> values = table.values(p, "throughput_mib_s");
    if (values.empty()) continue;
    const std::string& name = table.column_label(p, "case");
    const std::string& rate = table.column_label(p, "pack_rate");
    const std::string& size = table.column_label(p, "pipe_buffer");
    remember(cases, name);
    remember(rates, rate);
    remember(sizes, size);
    mean[name][rate][size] = stats::summarize(values).mean;
  }
  std::string out = "### Where each pathology lives: NuProcess (IOCP) throughput, MiB/s\n\n";
  out += "Rows: pack-objects' rate; columns: the pipe's size (NuProcess 2.0.1: 64 KiB, 2.0.2: 4120 B).\n";
  std::vector<std::string> header = {"pack_rate"};
  header.insert(header.end(), sizes.begin(), sizes.end());
  for (const auto& name : cases) {
    MarkdownTable heatmap(header, "l" + std::string(sizes.size(), 'r'));
    for (const auto& rate : rates) {
      std::vector<std::string> cells = {rate};
      for (const auto& size : sizes) cells.push_back(fmt::format("{:.1f}", mean[name][rate][size]));
      heatmap.add(cells);
    }
    out += "\n**" + name + "**\n\n" + heatmap.str();
  }
  return out;
}

std::string headline_report(const RunTable& table) {
  if (table.points_where("case", "jdk").empty()) return phase_report(table);
  auto reference = ReferenceTable::ForStudy("pipe");
  if (!reference.ok()) return "(no seed table: " + reference.status().message() + ")\n";
  const ReferenceTable& seed = *reference;
  const double transfer_mib = seed.number(*seed.find("case", std::string("jdk")), "transfer_mib").value_or(0);

  std::vector<std::string> mechanisms;
  std::map<std::string, std::map<std::string, Cell>> cells_of;  // mechanism -> case -> throughput
  for (size_t p = 0; p < table.scenario->grid.size(); ++p) {
    const std::string mechanism = table.params(p).string("mechanism");
    const std::string& name = table.column_label(p, "case");
    std::vector<double> values = table.values(p, "throughput_mib_s");
    if (values.empty()) continue;
    if (cells_of.count(mechanism) == 0) mechanisms.push_back(mechanism);
    cells_of[mechanism][name] = Cell{stats::summarize(values), true};
  }

  std::string out = "### NuProcess pipe pump: the seed's clone under each explanation\n\n";
  out += fmt::format(
      "Simulated {:.0f} MiB per run (10 seeds: timer phase), projected to the seed's {:.2f} MiB pack.\n\n",
      table.params(0).real("transfer_bytes") / kMiB, transfer_mib);
  std::vector<std::string> header = {"case", "pump", "pipe", "platform", "seed"};
  for (const auto& m : mechanisms) {
    header.push_back(m + " MiB/s");
    header.push_back(m + " clone");
  }
  MarkdownTable clones(header, "");
  for (const char* name : kCases) {
    auto row = seed.find("case", std::string(name));
    if (!row) continue;
    std::string published = seed.text(*row, "whole_operation");
    if (auto t = seed.number(*row, "throughput_mib_s"))
      published.insert(0, fmt::format("{:.4g} MiB/s, ", *t));
    std::vector<std::string> cells = {name, seed.text(*row, "pump"), seed.text(*row, "pipe_buffer"),
                                      seed.text(*row, "platform"), published};
    for (const auto& m : mechanisms) {
      const Cell& c = cells_of[m][name];
      cells.push_back(mib_s(c));
      cells.push_back(clone_time(c, transfer_mib));
    }
    clones.add(cells);
  }
  out += clones.str();

  const Params& constants = table.params(0);
  out += fmt::format(
      "\nConstants: the handler cost (c0 = {}, c1 = {} per byte) is the one constant calibrated, so that "
      "JDK / 4,120 B under poll-tick gives the seed's ~34 MiB/s. upload-pack's relay_cost ({} per packet) is "
      "derived, not fitted: 16 Win32 calls per relay iteration counted in git's source x 2 us a call "
      "(scenarios/pipe/NOTES.md); the pack rate ({:.0f} MiB/s) and the 15.625 ms timer tick are "
      "assumptions. Every MiB/s here is a prediction.\n\n",
      format_quantity(constants.real("handler_c0"), Quantity::kDuration),
      format_quantity(constants.real("handler_c1"), Quantity::kDuration),
      format_quantity(constants.real("relay_cost"), Quantity::kDuration), constants.real("pack_rate") / kMiB);
  const double seed_jdk = seed.number(*seed.find("case", std::string("jdk")), "throughput_mib_s").value_or(0);
  const double seed_slow =
      seed.number(*seed.find("case", std::string("nuprocess-2.0.1")), "throughput_mib_s").value_or(0);
  out += fmt::format(
      "Observations of the seed: (1) the 64 KiB pipe is slow ({:.0f}x slower than the JDK), (2) 4,120 B "
      "is as fast as the JDK, (3) Linux is fast. Here slow means under a fifth of the JDK's rate, as fast "
      "within 15%. On Linux the mechanism does not apply (real poll, no delay, Linux pipes). The clone "
      "columns are the transfer alone; the seed's whole operation also includes the work before it.\n\n",
      seed_slow > 0 ? seed_jdk / seed_slow : 0.0);
  for (const auto& m : mechanisms) {
    auto& c = cells_of[m];
    if (!c["jdk"].present || !c["nuprocess-2.0.1"].present) continue;
    double jdk = c["jdk"].mean();
    bool slow = c["nuprocess-2.0.1"].mean() < jdk / 5;
    bool same = c["nuprocess-2.0.2"].present && std::fabs(c["nuprocess-2.0.2"].mean() - jdk) <= 0.15 * jdk;
    bool linux_fast = c["linux"].present && c["linux"].mean() >= 0.85 * jdk;
    int held = int{slow} + int{same} + int{linux_fast};
    out += fmt::format(
        "- **{}**: {} ({:.1f}x), {}, {}: {} of 3 observations{}", m, slow ? "64 KiB slow" : "64 KiB NOT slow",
        jdk / c["nuprocess-2.0.1"].mean(), same ? "4,120 as fast as the JDK" : "4,120 NOT as fast as the JDK",
        linux_fast ? "Linux fast" : "Linux NOT fast", held, held == 3 ? " — reproduces all three." : ".");
    if (c["jdk-64k"].present) {
      out += fmt::format(
          " Predicts the discriminating case (JDK blocking reads on a 64 KiB pipe) {}: {:.2f} MiB/s.",
          c["jdk-64k"].mean() < jdk / 5 ? "SLOW" : "FAST", c["jdk-64k"].mean());
    }
    out += "\n";
  }
  out +=
      "\nH2's slow rate: one 15.625 ms tick moves the 16 KiB pack-objects had buffered (8 KiB in the "
      "8,192-byte pipe, 8 KiB stalled) plus one more 8 KiB for every flush it completes while the relay "
      "works, 8 KiB x (2 + floor(c_u / (t_c - c_u))) with c_u the relay cost and t_c pack-objects' time per "
      "8 KiB: 1.0 MiB/s at this pack rate and relay cost, half the seed's ~2 MB/s. Which relay cost and "
      "timer resolution give the seed's number is the pipe-seed-rate table; the phase heatmaps sweep the "
      "pack rate. H1 with the default completion_delay never gets slow at 48 MiB/s because a held read fills "
      "64 KiB in about 1.3 ms.\n";
  return out;
}

}  // namespace perflab::pipe_study
