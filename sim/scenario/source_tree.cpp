// See source_tree.h.
#include "sim/scenario/source_tree.h"

namespace perflab {

std::filesystem::path source_dir() { return PERFLAB_SOURCE_DIR; }
std::filesystem::path python_extension_dir() { return PERFLAB_PYTHON_DIR; }
std::string this_tree_python_path() {
  return (source_dir() / "analysis" / "python").string() + ":" + python_extension_dir().string();
}

}  // namespace perflab
