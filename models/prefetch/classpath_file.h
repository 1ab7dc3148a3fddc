// Reads a classpath file: one JAR path per line, in classpath order, as written by
// scenarios/prefetch/data/capture-trace.sh. Blank lines and lines starting with '#' are ignored; a relative
// path is relative to the directory holding the file.
#pragma once

#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab::prefetch {

Result<std::vector<std::string>> read_classpath_file(const std::string& path);

}  // namespace perflab::prefetch
