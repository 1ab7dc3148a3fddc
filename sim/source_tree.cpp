// See source_tree.h.
#include "sim/source_tree.h"

namespace perflab {

std::filesystem::path source_dir() { return PERFLAB_SOURCE_DIR; }
std::filesystem::path python_extension_dir() { return PERFLAB_PYTHON_DIR; }

}  // namespace perflab
