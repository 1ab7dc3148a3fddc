// The machine's wake-up latency at each point of a real scenario, probed just before the point's real runs
// (sim/engines/real/wake_up_probe.h) for a study that takes it (Study::probes_wake_up): what validate and
// calibrate run the sim twin of each point with (RunOptions::wake_up), and how they report it. A
// measurement of this machine, never a calibration: it is taken again on every run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/engines/real/wake_up_probe.h"
#include "sim/scenario/scenario.h"
#include "sim/study/calibration_hook.h"

namespace perflab {

struct PointWakeUps {
  std::vector<real::WakeUpProbe> probes;  // per grid point; empty when the study takes none

  // RunOptions::wake_up: each point's wake-up in seconds (empty when none was probed).
  std::vector<double> seconds() const;
  // One line for a report's notes: how it was probed and the range over the points; empty when none was.
  std::string note() const;
  // The same for a calibration file (CalibrationFit::measured); nullopt when none was probed.
  std::optional<MeasuredValue> measured() const;
};

// Probes every point of `real` when its study takes the wake-up (each at the mean one-way latency of the
// scenario's network), saying so on stderr as `who`; no probe otherwise.
Result<PointWakeUps> probe_wake_ups(const Scenario& real, const std::string& who);

}  // namespace perflab
