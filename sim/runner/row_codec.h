// One text form for a finished run row, used both by a forked child to send its row to the parent and by
// the --out journal that --resume reads back: one line, so a torn line (a child killed mid-write, a
// journal cut by a crash) is recognised by its missing newline and never half-read.
//   <point> <replication> <seed> <outcome> [<metric>=<value>]... [@rep=<seconds>]... [error=<text>]
// Values are printed with 17 significant digits (NaN and infinities included); the error text runs to the
// end of the line with backslash, newline and carriage return escaped.
#pragma once

#include <optional>
#include <string>

#include "sim/runner/run_table.h"

namespace perflab {

// The row as one line, newline included.
std::string encode_row(const RunRow& row);
// The row of one line (without its newline), or nothing if the line is not a whole row.
std::optional<RunRow> decode_row(const std::string& line);

}  // namespace perflab
