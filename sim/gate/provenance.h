// Where a result came from: the checkout, the build and the machine that made it, and the command line.
// Every `.meta` that `run --out`, `merge` and `reproduce` write carries these as `key = value` lines, so a
// committed CSV says which commit (and whether the tree had uncommitted changes), which compiler and
// SimGrid, which perflab executable, which host and which command produced it. `check` and `compare` read
// them back to say when a difference may come from the build rather than from the model.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace perflab {

struct Provenance {
  std::string commit;     // full sha of the source checkout's HEAD, or "unknown" outside a git checkout
  bool dirty = false;     // tracked files changed since `commit` (results/ excluded: it is the output)
  std::string compiler;   // "GNU 12.2.0 RelWithDebInfo"
  std::string simgrid;    // "3.32.0"
  std::string perflab;    // "sha256:<hex>" of the running executable
  std::string host;       // "AMD EPYC 7B13, 2 cores, Linux 6.1.0-26-cloud-amd64"
  std::string date;       // UTC, ISO 8601: "2026-12-01T21:30:00Z"
  std::string command;    // the command line, shell-quoted
  std::string allocator;  // allocator_environment(): empty at glibc's defaults, and then not in `.meta`

  // The provenance keys in `.meta` order.
  std::vector<std::pair<std::string, std::string>> fields() const;
  // One line for a report's record: "ran DATE on HOST at commit SHA[ (with uncommitted changes)], executable
  // sha256:HEX[, allocator environment: …]". The commit is the checkout's the command ran in; the
  // executable's hash says which program ran, should it be older than that checkout.
  std::string ran() const;
};

// The environment that changes how this process allocates memory: glibc's MALLOC_* variables, GLIBC_TUNABLES
// when it sets a glibc.malloc tunable, and LD_PRELOAD (another allocator), as "NAME=VALUE, …"; empty at
// glibc's defaults. Where the real engine's memory lies sets what walking it costs (the dispatcher's lists:
// results/dispatcher/malloc-arenas/).
std::string allocator_environment();

// Now, in UTC, as Provenance::date spells it.
std::string utc_now();

// Remembers the command line for Provenance::command (cli_main calls it first).
void set_command_line(int argc, char** argv);

// What this process would write now. The executable's hash and the git queries are made once.
const Provenance& current_provenance();

// The `key = value` lines of a `.meta` file (empty when it does not exist).
std::map<std::string, std::string> read_meta(const std::filesystem::path& file);

}  // namespace perflab
