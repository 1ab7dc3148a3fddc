// Sweeps split across machines: `perflab run … --shard I/N --out DIR` runs every N-th run of the table
// (shard_tasks) and leaves DIR/<name>.shard beside its outputs; `perflab merge DIR… --out OUT`
// joins the shards into the very files one unsharded run writes. The .shard file says which scenario
// (file, --set overrides, fingerprint of the expanded grid) and which shard it is, then holds every run's
// row in the exact form of row_codec.h, so merged outputs are byte-identical to an unsharded run's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/runner/run_table.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace perflab {

struct Shard {
  std::filesystem::path scenario_file;  // absolute
  std::vector<Override> overrides;      // --set and --seeds, in order
  int index = 1;                        // 1..count
  int count = 1;
  uint64_t fingerprint = 0;  // of the expanded scenario (journal.h); merge refuses mixed ones
  std::vector<RunRow> rows;  // the runs this shard did
};

// "I/N" with 1 <= I <= N.
Result<Shard> parse_shard_flag(const std::string& text);

// The runs of shard `index` (1-based) of `count`: every count-th task of the run table (RunTable::task_of),
// starting at index - 1.
TaskSelection shard_tasks(const Scenario& scenario, int index, int count);

Status write_shard(const std::filesystem::path& file, const Shard& shard);
Result<Shard> read_shard(const std::filesystem::path& file);

// The shards of one scenario (all N of them, each complete) as one run table over `scenario`, which the
// caller loaded from the shards' scenario file and overrides. `files` name the shards in errors.
Result<RunTable> merge_shards(const Scenario& scenario, const std::vector<Shard>& shards,
                              const std::vector<std::filesystem::path>& files);

}  // namespace perflab
