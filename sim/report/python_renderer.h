// The door to the one renderer: C++ writes data (CSV, summaries, .meta, check.txt) and
// analysis/python/render.py draws every figure and writes a results folder's README.md and site from it;
// `perflab reproduce`, `reproduce --readme-only` and `check --record` run it once.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

// Runs /usr/bin/python3 analysis/python/<script_name> `args`, with this tree's analysis/python and this
// build's extension on PYTHONPATH; an error names the exit status and `what` the script was doing.
Status run_python(const std::string& script_name, std::vector<std::string> args, const std::string& what);

// Runs /usr/bin/python3 analysis/python/render.py on `results`: its figures, README.md and site; with
// `print` scenario names, their reports (or summaries) on stdout. An error names the exit status.
Status render_results(const std::filesystem::path& results, const std::vector<std::string>& print = {});

}  // namespace perflab
