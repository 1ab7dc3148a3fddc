// Who gets the dispatcher's lock when it is released, in the sim (simulated_monitor.h says how each
// works): a knob of the study, so SimGrid-free (the real engine's files, which TSan builds, include it).
#pragma once

#include "models/common/enum_names.h"

namespace perflab::dispatcher_study {

enum class LockHandOff { kBarging, kFifo, kGlibc };

inline const EnumNames<LockHandOff> kLockHandOffNames{
    "lock hand-off policy",
    {{LockHandOff::kBarging, "barging"}, {LockHandOff::kFifo, "fifo"}, {LockHandOff::kGlibc, "glibc"}}};

}  // namespace perflab::dispatcher_study
