// `perflab run --scheduler ADDRESS`: a scenario's runs on the Dask cluster the Python API uses
// (perflab.run(..., client=ADDRESS)). A /usr/bin/python3 child (analysis/python/perflab/cluster_rows.py)
// connects to the scheduler, spreads the runs over its workers in slices and prints every run's row in the
// row codec's form; those rows make the RunTable a local run would, so the same files are written.
#pragma once

#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/runner/run_table.h"
#include "sim/scenario/scenario.h"

namespace perflab {

// `overrides` are the ones the scenario was loaded with (--set, --case, --seeds): the workers load it the
// same way. An error when the scheduler cannot be reached or the child fails, with the child's reason.
Result<RunTable> run_on_dask(const Scenario& scenario, const std::string& scheduler,
                             const std::vector<Override>& overrides);

}  // namespace perflab
