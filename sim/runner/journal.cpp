// The resume journal: see journal.h.
#include "sim/runner/journal.h"

#include <fstream>
#include <sstream>

#include "sim/runner/row_codec.h"
#include "sim/sampling/rng.h"

namespace perflab {
namespace {

constexpr const char* kJournalMagic = "perflab-journal-v2";

}  // namespace

uint64_t scenario_fingerprint(const Scenario& scenario) {
  std::string text =
      scenario.name + "|" + scenario.study->name + "|" + engine_name(scenario.engine) + "|" +
      std::to_string(scenario.seeds) + "|" + std::to_string(scenario.seed) + "|" +
      std::to_string(scenario.repetitions) +
      (scenario.long_repetitions == scenario.repetitions ? ""
                                                         : "/" + std::to_string(scenario.long_repetitions));
  return fnv1a(text + "|" + std::to_string(scenario.grid.fingerprint()));
}

Result<Journal> Journal::open(const std::filesystem::path& file, const Scenario& scenario, bool resume) {
  Journal journal;
  std::string header = std::string(kJournalMagic) + " " + std::to_string(scenario_fingerprint(scenario));
  if (resume) {
    std::ifstream in(file);
    if (!in) {
      return Status::Error(file.string() + ": nothing to resume (no journal of an interrupted run), " +
                           "expected an earlier run with the same --out that did not finish");
    }
    std::stringstream whole;
    whole << in.rdbuf();
    std::string text = whole.str();
    size_t end = text.find('\n');
    if (end == std::string::npos || text.compare(0, end, header) != 0) {
      return Status::Error(file.string() +
                           ":1: the interrupted run used a different scenario (file, --set or " +
                           "--seeds changed), expected the same ones; rerun without --resume");
    }
    // Only whole lines count: a last line without its newline was torn by the interruption.
    for (size_t start = end + 1; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      auto row = decode_row(text.substr(start, end - start));
      if (row && row->ok()) journal.rows_.push_back(std::move(*row));
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
  std::fputs(encode_row(row).c_str(), out_.get());
  std::fflush(out_.get());
}

}  // namespace perflab
