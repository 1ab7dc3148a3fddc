// The order in which a JVM initiates class loads, rebuilt from the order -Xlog:class+load logged them.
//
// The log names a class when it is *defined*. While HotSpot defines a class C it resolves C's direct
// supertypes (JDK 17: its interfaces in declared order while parsing, then its superclass), and a supertype
// not loaded yet is loaded and defined first, recursively: the log is a post-order, e.g.
//   CloneCommand$Callback, AbstractFetchCommand, Clone          (Clone extends AbstractFetchCommand
//                                                                implements CloneCommand.Callback)
// A Remoting agent *initiates* Clone first: its fetch3(Clone) reply prefetches the two supertypes, which the
// JVM asks for only while defining Clone. Replaying the log as it is would charge RPCs no agent makes.
//
// Reconstruction: walk the log keeping a stack of trees. Each class adopts as children the trees on top of
// the stack whose roots are its direct supertypes (checked from the top: the last one resolved first), and
// is pushed as a new tree. A supertype that is not on top (loaded earlier, or JDK class files unknown) is not
// adopted. The initiation order is the pre-order of the forest: a class, then its adopted subtrees in the
// order the JVM resolved them (their log order). Classes whose supertypes are unknown (JDK and generated
// classes, for which we have no class files) take part as leaves: a classpath class can adopt them.
// (Issue 11 stated a rule that checks the superclass last; on a JDK 17 log it leaves an interface resolved
// before the superclass as a separate, earlier load: scenarios/prefetch/NOTES.md compares the two.)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/common/enum_names.h"
#include "models/prefetch/class_header.h"
#include "models/prefetch/class_load_trace.h"

namespace perflab::prefetch {

// Which order the agent replays a class-load log in: as the JVM initiated the loads (the default, what an
// agent does) or as the log lists them (post-order: supertypes before the class that needed them).
enum class TraceOrder { kInitiated, kLogged };
inline const EnumNames<TraceOrder> kTraceOrderNames{
    "trace order", {{TraceOrder::kInitiated, "initiated"}, {TraceOrder::kLogged, "logged"}}};

// The header of a class by binary name, or nullptr when its class file is unknown.
using ClassHeaderLookup = std::function<const ClassHeader*(const std::string& class_name)>;

// The same loads in initiation order. Each load keeps its log line, so a reader can tell the two orders
// apart.
std::vector<TracedClassLoad> initiation_order(const std::vector<TracedClassLoad>& logged,
                                              const ClassHeaderLookup& header_of);

}  // namespace perflab::prefetch
