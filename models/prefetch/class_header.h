// The direct supertypes of a class, read from its class file: the JVM's view, not Remoting's.
//
// A class file gives this_class, super_class and interfaces[] as indexes of CONSTANT_Class entries, right
// after the constant pool. Unlike Remoting's scan (class_file.h), this reader sizes every constant the JVM
// specification defines (Dynamic 17, Module 19 and Package 20 included), because the JVM loads the supertypes
// of every class, prefetchable or not. Used to rebuild the order in which a JVM initiates class loads from
// the order -Xlog:class+load logged them (initiation_order.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/status.h"

namespace perflab::prefetch {

struct ClassHeader {
  std::string name;                       // binary name ("a.b.C$D")
  std::optional<std::string> superclass;  // none for java.lang.Object and module-info
  std::vector<std::string> interfaces;    // in declared order
};

// Errors say what is malformed and where (bad magic, truncation, an index that is not a Class constant).
Result<ClassHeader> read_class_header(std::string_view class_file);

}  // namespace perflab::prefetch
