// results/check.txt: the whole gate's last verdict (key = value lines: result, exit, scope and the build's
// commit, dirty, date, host), which `perflab check --record` writes and the site's index shows.
#pragma once

#include <filesystem>

#include "models/common/status.h"

namespace perflab {

// Writes results/check.txt for a `perflab check` of every study that exited with `exit_status`. (A check of
// some studies leaves the record alone: the index shows the whole gate.)
Status write_check_record(const std::filesystem::path& results, int exit_status, bool quick, bool full);

}  // namespace perflab
