#include "sim/journal.h"

#include <fstream>
#include <sstream>

#include "sim/sampling/rng.h"

namespace perflab {
namespace {

constexpr const char* kMagic = "perflab-journal-v1";

}  // namespace

uint64_t scenario_fingerprint(const Scenario& scenario) {
  std::string text = scenario.name + "|" + scenario.study->name + "|" + scenario.engine + "|" +
                     std::to_string(scenario.seeds) + "|" + std::to_string(scenario.seed) + "|" +
                     std::to_string(scenario.repetitions);
  for (const auto& point : scenario.grid) text += "|" + std::to_string(point.identity);
  return fnv1a(text);
}

Result<Journal> Journal::open(const std::filesystem::path& file, const Scenario& scenario, bool resume) {
  Journal journal;
  journal.file_ = file;
  std::string header = std::string(kMagic) + " " + std::to_string(scenario_fingerprint(scenario));
  if (resume) {
    std::ifstream in(file);
    if (!in) {
      return Status::Error(file.string() + ": nothing to resume (no journal of an interrupted run), " +
                           "expected an earlier run with the same --out that did not finish");
    }
    std::string line;
    std::getline(in, line);
    if (line != header) {
      return Status::Error(file.string() +
                           ":1: the interrupted run used a different scenario (file, --set or " +
                           "--seeds changed), expected the same ones; rerun without --resume");
    }
    int line_number = 1;
    while (std::getline(in, line)) {
      ++line_number;
      std::istringstream fields(line);
      RunRow row;
      std::string token;
      if (!(fields >> row.point >> row.replication >> row.seed)) continue;  // a torn last line
      row.done = true;
      while (fields >> token) {
        auto eq = token.find('=');
        if (eq == std::string::npos) continue;
        std::string key = token.substr(0, eq);
        double value = std::strtod(token.c_str() + eq + 1, nullptr);
        if (key == "@rep") {
          row.repetitions.push_back(value);
        } else {
          row.metrics[key] = value;
        }
      }
      journal.rows_.push_back(std::move(row));
    }
    journal.out_.reset(std::fopen(file.c_str(), "a"));
  } else {
    journal.out_.reset(std::fopen(file.c_str(), "w"));
    if (journal.out_) std::fprintf(journal.out_.get(), "%s\n", header.c_str());
  }
  if (!journal.out_) return Status::Error(file.string() + ": cannot write the run journal");
  std::fflush(journal.out_.get());
  return journal;
}

void Journal::append(const RunRow& row) {
  std::fprintf(out_.get(), "%zu %d %llu", row.point, row.replication,
               static_cast<unsigned long long>(row.seed));
  for (const auto& [name, value] : row.metrics) std::fprintf(out_.get(), " %s=%.17g", name.c_str(), value);
  for (double rep : row.repetitions) std::fprintf(out_.get(), " @rep=%.17g", rep);
  std::fprintf(out_.get(), "\n");
  std::fflush(out_.get());
}

void Journal::remove() {
  out_.reset();
  std::error_code ec;
  std::filesystem::remove(file_, ec);
}

}  // namespace perflab
