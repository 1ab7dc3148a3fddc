// The journal of an --out run: each finished row is appended (and flushed) the moment it arrives, so a run
// that is interrupted or killed can be continued with --resume without recomputing or duplicating rows.
// The first line fingerprints the expanded scenario; resuming a different scenario is refused. Rows are
// written in the one row form of row_codec.h.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "models/common/status.h"
#include "sim/runner/run_table.h"

namespace perflab {

class Journal {
 public:
  // resume=false starts a new journal (discarding an old one); resume=true reads the finished rows first.
  static Result<Journal> open(const std::filesystem::path& file, const Scenario& scenario, bool resume);

  const std::vector<RunRow>& rows() const { return rows_; }
  void append(const RunRow& row);

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> out_;
  std::vector<RunRow> rows_;
};

uint64_t scenario_fingerprint(const Scenario& scenario);

}  // namespace perflab
