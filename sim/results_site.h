// The results site (index.html, one page per study, SVG plots) is drawn by a Python generator,
// analysis/python/build_site.py, from a results folder's CSV files; `perflab reproduce` and
// `reproduce --readme-only` run it after the folder's README.md, and before both the study plots
// (analysis/python/plot_results.py, the PNGs README.md shows). `perflab check --record` records the whole
// gate's verdict in results/check.txt (key = value lines), which the index shows.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

// Runs /usr/bin/python3 analysis/python/<script_name> `args`, with this tree's analysis/python and this
// build's extension on PYTHONPATH; an error names the exit status and `what` the script was doing.
Status run_python(const std::string& script_name, std::vector<std::string> args, const std::string& what);

// Runs /usr/bin/python3 analysis/python/build_site.py on `results`; an error names the exit status.
Status write_results_site(const std::filesystem::path& results);

// Runs /usr/bin/python3 analysis/python/plot_results.py on `results` (each study's plot.py).
Status draw_study_plots(const std::filesystem::path& results);

// Writes results/check.txt for a `perflab check` of every study that exited with `exit_status`, then
// rebuilds the site. (A check of some studies leaves the record alone: the index shows the whole gate.)
Status write_check_record(const std::filesystem::path& results, int exit_status, bool quick, bool full);

}  // namespace perflab
