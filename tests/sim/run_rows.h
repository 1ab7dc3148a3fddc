// Rows of a run table made by hand, for tests of what reads one (a calibration fit, a study's claims).
#pragma once

#include <cstddef>
#include <utility>

#include "sim/runner/run_table.h"

namespace perflab::testing {

// A successful run of `scenario`'s grid point `point`, replication `replication`, that measured `metrics`.
inline RunRow ok_row(const Scenario& scenario, std::size_t point, int replication, Metrics metrics) {
  RunRow row;
  row.point = point;
  row.replication = replication;
  row.seed = RunTable::seed_of(scenario, replication);
  row.outcome = Outcome::kOk;
  row.metrics = std::move(metrics);
  return row;
}

}  // namespace perflab::testing
