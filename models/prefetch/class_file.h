// The constant-pool scan Jenkins Remoting runs on a class file to find what to prefetch with it.
//
// Remoting does not parse a whole class file: it walks the constant pool and collects
//   - every CONSTANT_Class name, leading '[' stripped, one-letter (primitive) names skipped, "L...;"
//   unwrapped;
//   - every "L...;" in the descriptor of every CONSTANT_NameAndType.
// The result is a sorted set of binary names ("java.lang.String"); the class itself is in it.
// A constant whose size the scanner does not know (Module 19, Package 20, Dynamic 17 or an unknown tag) stops
// the scan: Remoting then sends the class without any prefetch. That is a normal outcome, not an error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/status.h"

namespace perflab::prefetch {

struct ClassScan {
  // Sorted, without duplicates, '.' separators. Empty when the scan stopped at an unsupported constant.
  std::vector<std::string> dependencies;
  // The tag that stopped the scan, if any: the class then gets no prefetch.
  std::optional<int> unsupported_tag;

  bool prefetchable() const { return !unsupported_tag.has_value(); }
};

// Scans the constant pool of `class_file`. Bytes that are not a well-formed constant pool (bad magic,
// truncation, an index pointing at the wrong kind of constant) give an error saying where and what.
Result<ClassScan> scan_class_file(std::string_view class_file);

}  // namespace perflab::prefetch
