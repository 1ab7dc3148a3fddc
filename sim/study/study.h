// What a study is to the harness: a parameter schema, metric names, and a driver per engine.
// A study registers itself from its driver file (scenarios/<study>/) with a static StudyRegistration, so
// adding a study means writing a model, a driver and a scenario file, and nothing else.
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "sim/sampling/distribution.h"
#include "sim/study/calibration_hook.h"
#include "sim/study/params.h"
#include "sim/study/seeding.h"

namespace perflab {

class Timeline;
struct RunTable;

using Metrics = std::map<std::string, double>;

// One metric of a study, from its binding (sim/study/metrics.h).
struct MetricSpec {
  std::string name;
  std::string meaning;
  bool exact = false;  // a deterministic count (same on every machine): compared exactly by `perflab check`
  std::string unit{};  // "s", "bytes", "MiB/s", …; empty: a count or a ratio

  MetricSpec& exactly() {
    exact = true;
    return *this;
  }
};

// The network of a sim-engine scenario ([network] in the scenario file).
struct NetworkSpec {
  Distribution latency = Distribution::constant(0, Quantity::kDuration);  // one-way, drawn per message
  double bandwidth = 0;                                                   // bytes per second
};

// What a study's prepare() loaded for one grid point (a trace, a classpath index, an encoded file): the
// runner keeps it for the point's runs, and the forked children share it copy-on-write. Empty for a study
// without prepare(). get<T>() must name the type prepare() returned.
class PointInputs {
 public:
  PointInputs() = default;
  template <class T>
  PointInputs(std::shared_ptr<const T> inputs) : inputs_(std::move(inputs)) {}  // NOLINT: implicit by design
  template <class T>
  const T& get() const {
    return *std::any_cast<const std::shared_ptr<const T>&>(inputs_);
  }

 private:
  std::any inputs_;
};

// Everything a driver gets for one run (one grid point, one replication), in a forked child.
struct RunContext {
  const Params& params;
  const PointInputs& inputs;  // what prepare() loaded for this grid point
  const NetworkSpec& network;
  uint64_t seed;       // the run's seed: the scenario's seed + the replication (sim/study/seeding.h)
  Timeline* timeline;  // nullptr unless --timeline was given
  // Seconds the SimGrid transport charges after each of a node's waits that waited (a sleep with time left,
  // a receive that found nothing and waited): the machine's wake-up latency, as validate and calibrate probe
  // it before a point's real runs (sim/engines/real/wake_up_probe.h). 0 everywhere else.
  double wake_up = 0;
  // The run's generator for one named random source (sim/study/seeding.h): the same numbers at every grid
  // point.
  Rng rng(std::string_view stream) const { return stream_rng(seed, stream); }
};

// A micro-engine workload. Each repetition calls set_up, run and tear_down; only `run` is timed, so a
// workload can keep out of the clock what the benchmark it reproduces kept out (building a fixture,
// freeing what is left). `report` turns the median time of `run` and its counters into the study's
// metrics: a study writes MicroWorkloadOf<its result struct> and bind_micro (sim/study/metrics.h) names them.
template <class Report>
struct MicroWorkloadOf {
  std::function<Status()> set_up;   // optional, untimed
  std::function<Metrics()> run;     // timed: one whole workload on the real code; returns its counters
  std::function<void()> tear_down;  // optional, untimed
  std::function<Report(double median_seconds, const Metrics& counters)> report;
  // Optional, for code that runs in another process (a child JVM) and times itself, so that the round
  // trip to it stays off the clock: the seconds of the timed part of the run() just done, or why it
  // failed. The engine records these instead of its own clock around run().
  std::function<Result<double>()> measured_seconds;
};
using MicroWorkload = MicroWorkloadOf<Metrics>;

// A statement about a headline scenario that must hold on any machine: a ratio, a fitted exponent, a bound
// (the study's page.py shows the tables around it; the claims are judged here, in C++).
// `perflab check` evaluates a study's claims on a fresh run (micro-engine times are never compared as
// absolute numbers on a shared machine, only through claims like these).
struct Claim {
  std::string name;  // what is claimed, e.g. "scan / counter at n = 64000"
  double value;      // NaN when the run lacks what the claim needs
  double low;        // the claim holds when low <= value <= high
  double high;
};

struct Study {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  std::vector<MetricSpec> metrics;        // what run_sim reports (bind_sim sets both, sim/study/metrics.h)
  std::vector<MetricSpec> micro_metrics;  // what setup_micro's report gives, if it differs (bind_micro)
  std::vector<MetricSpec> real_metrics;   // what run_real reports, if it differs (bind_real)
  // Parameters that follow from others, set in a point before its columns are written (optional): share's
  // file_size is its `file`'s size. An error is bad input, reported as validate's are.
  std::function<Status(Params&)> complete;
  // Cross-parameter checks once a point's values are known (optional).
  std::function<Status(const Params&)> validate;
  // The parameters a point's other values leave unused (optional): pipe's transfer_bytes with a trace
  // writer. A summary does not show them among a scenario's fixed values (the CSV keeps every column).
  std::function<std::vector<std::string>(const Params&)> unused;
  // Runs in the parent process once per grid point before any run is forked (optional): loads inputs
  // that every run of the point shares (the forked children inherit them) and reports bad input files.
  std::function<Result<PointInputs>(const Params&)> prepare;
  // The parameters prepare() reads: points that agree on them share one prepare() and its inputs (a depth
  // sweep indexes its classpath once). Empty: every point is prepared on its own.
  std::vector<std::string> prepare_reads;
  // Engines: a study provides one or both.
  std::function<Result<Metrics>(const RunContext&)> run_sim;
  std::function<Result<MicroWorkload>(const Params&, const PointInputs&)> setup_micro;
  // The real engine: the same model objects as run_sim, in real processes and real time (sim/engines/real/).
  // Gets the same RunContext, so the same seeds and draws.
  std::function<Result<Metrics>(const RunContext&)> run_real;
  // The real programs a run on `engine` executes, each with its version ("git 2.39.5"), written to the
  // run's .meta as `uses = …` since what it measured depends on them (optional).
  std::function<std::vector<std::string>(Engine)> uses;
  // The claims `perflab check` verifies on a fresh run of a headline scenario (optional).
  std::function<std::vector<Claim>(const RunTable&)> claims;
  // `perflab calibrate`'s fit of the constants validate.toml's calibration_scenario measures (optional;
  // sim/gate/calibration_record.h).
  std::optional<CalibrationHook> calibration;
  // Whether validate and calibrate run the sim twin of each point at this machine's wake-up latency,
  // probed before the point's real runs (RunContext::wake_up). Only for a study whose drivers go through
  // the transport (transport.h), whose calibration was fitted with it.
  bool probes_wake_up = false;

  const ParamSpec* find_param(const std::string& param) const;
  const std::vector<MetricSpec>& metrics_for(Engine engine) const {
    if (engine == Engine::kMicro && !micro_metrics.empty()) return micro_metrics;
    if (engine == Engine::kReal && !real_metrics.empty()) return real_metrics;
    return metrics;
  }
};

// Aborts, naming the study, when a metric has no name, two share one, or one is named like a parameter of
// the same engine or a column perflab adds (seed, error, …): each is a column of one CSV header.
void register_study(Study study);
const Study* find_study(const std::string& name);
// The study named `name`, or the one error for a name that is none: unknown study "x", expected one of: ….
Result<const Study*> study_named(const std::string& name);
std::vector<const Study*> all_studies();

struct StudyRegistration {
  explicit StudyRegistration(Study (*make)()) { register_study(make()); }
};

}  // namespace perflab
