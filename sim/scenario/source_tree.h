// Where this build's checkout is: scenarios/, results/, analysis/ and out/ are found under it. Only
// source_tree.cpp is compiled with the checkout's absolute path, so every other object file is the same
// in any clone of the tree and a second clone builds from ccache.
#pragma once

#include <filesystem>
#include <string>

namespace perflab {

std::filesystem::path source_dir();
// This build's Python extension (_perflab), for the scripts the CLI runs (the site reads units through it).
std::filesystem::path python_extension_dir();
// "PACKAGE:EXTENSION": this tree's Python package (analysis/python) and this build's extension, the
// PYTHONPATH of the Python the CLI runs.
std::string this_tree_python_path();

}  // namespace perflab
