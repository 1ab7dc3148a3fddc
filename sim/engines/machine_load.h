// How busy the machine was around a micro-engine run, for the reader of its timings: the kernel's 1-minute
// load average (/proc/loadavg) and the wall time of a fixed probe loop (the same integer work every time,
// so on one machine a slower probe means the CPU was shared). `run --out` and `reproduce` record both
// before and after the timed repetitions in the run's .meta; the results site says from them whether the
// machine was quiet or loaded.
#pragma once

namespace perflab {

struct MachineLoad {
  double load_average = -1;  // runnable tasks, 1-minute average; -1 when /proc/loadavg is unreadable
  double probe_ms = 0;       // the median of three runs of the probe loop
};

MachineLoad measure_machine_load();

}  // namespace perflab
