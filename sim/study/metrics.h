// A study's metrics, each bound once to the member of the study's result struct that carries it (the twin
// of sim/study/knobs.h):
//
//   struct PingPongResult { double duration_s = 0; int64_t messages = 0; };
//   MetricBindings<PingPongResult> metrics;
//   metrics.seconds("duration_s", &PingPongResult::duration_s, "simulated time until the last reply
//   arrived"); metrics.count("messages", &PingPongResult::messages, "messages sent (requests +
//   replies)").exactly(); bind_sim(study, metrics, run_pingpong);  // run_pingpong returns
//   Result<PingPongResult>
//
// A binding names the metric, its unit (the binder: count, seconds, bytes, or number with a unit), the
// member that carries it and what it means; .exactly() marks a deterministic count, compared exactly by
// `perflab check`. The driver returns the struct, so a metric it does not fill cannot exist and a member
// bound under one name cannot be reported under another. From the bindings come the study's metric schema
// (MetricSpec, in binding order): the CSV's metric columns, `perflab describe`, check's exact set, Python's
// describe() and the units the results site formats with. register_study() rejects a schema with a
// name bound twice.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/study/study.h"

namespace perflab {

template <class Values>
class MetricBindings {
 public:
  // A number without a unit: a count, a ratio, a flag.
  template <class Member>
  MetricSpec& count(const std::string& name, Member member, std::string meaning) {
    return bind(name, member, std::move(meaning), "");
  }
  template <class Member>
  MetricSpec& seconds(const std::string& name, Member member, std::string meaning) {
    return bind(name, member, std::move(meaning), "s");
  }
  template <class Member>
  MetricSpec& bytes(const std::string& name, Member member, std::string meaning) {
    return bind(name, member, std::move(meaning), "bytes");
  }
  // Any other unit, spelled as the metric's name spells it ("MiB/s", "ns", "calls/s").
  template <class Member>
  MetricSpec& number(const std::string& name, Member member, std::string unit, std::string meaning) {
    return bind(name, member, std::move(meaning), std::move(unit));
  }

  const std::vector<MetricSpec>& specs() const { return specs_; }

  // The values of one run, by metric name.
  Metrics values(const Values& values) const {
    Metrics out;
    for (size_t i = 0; i < specs_.size(); ++i) out[specs_[i].name] = getters_[i](values);
    return out;
  }

 private:
  template <class Member>
  MetricSpec& bind(const std::string& name, Member member, std::string meaning, std::string unit) {
    getters_.push_back(
        [member](const Values& values) { return static_cast<double>(std::invoke(member, values)); });
    specs_.push_back(MetricSpec{name, std::move(meaning), false, std::move(unit)});
    return specs_.back();
  }

  std::vector<MetricSpec> specs_;
  std::vector<std::function<double(const Values&)>> getters_;
};

// A run's driver, which returns the bound struct, as the harness calls it: the values by metric name.
template <class Values, class Driver>
std::function<Result<Metrics>(const RunContext&)> metrics_driver(const MetricBindings<Values>& metrics,
                                                                 Driver driver) {
  return [metrics, driver](const RunContext& context) -> Result<Metrics> {
    Result<Values> values = driver(context);
    if (!values.ok()) return values.status();
    return metrics.values(*values);
  };
}

// The study's sim engine: its metric schema and its driver.
template <class Values, class Driver>
void bind_sim(Study& study, const MetricBindings<Values>& metrics, Driver driver) {
  study.metrics = metrics.specs();
  study.run_sim = metrics_driver(metrics, driver);
}

// The study's real engine (sim/study/engine.h): its metric schema and its driver.
template <class Values, class Driver>
void bind_real(Study& study, const MetricBindings<Values>& metrics, Driver driver) {
  study.real_metrics = metrics.specs();
  study.run_real = metrics_driver(metrics, driver);
}

// The real engine's own metrics, for a result struct with the members sleeps, oversleep_mean_s,
// oversleep_max_s and realtime: how late its sleeps woke (sim/engines/real/deadline_sleeper.h; validate prints them)
// and whether its processes ran at real-time priority (sim/engines/real/realtime.h).
template <class Values>
void bind_oversleep(MetricBindings<Values>& m, const std::string& what_slept) {
  m.count("sleeps", &Values::sleeps, what_slept);
  m.seconds("oversleep_mean_s", &Values::oversleep_mean_s, "mean lateness of those sleeps' wake-ups");
  m.seconds("oversleep_max_s", &Values::oversleep_max_s, "largest lateness of a wake-up");
  m.count("realtime", &Values::realtime, "1 if the run's processes got real-time scheduling (SCHED_FIFO)");
}

// The study's micro engine: its metric schema and the setup of its workloads, whose report returns the
// bound struct.
template <class Values, class Setup>
void bind_micro(Study& study, const MetricBindings<Values>& metrics, Setup setup) {
  study.micro_metrics = metrics.specs();
  study.setup_micro = [metrics, setup](const Params& params,
                                       const PointInputs& inputs) -> Result<MicroWorkload> {
    Result<MicroWorkloadOf<Values>> typed = setup(params, inputs);
    if (!typed.ok()) return typed.status();
    MicroWorkload workload{typed->set_up, typed->run, typed->tear_down, nullptr, typed->measured_seconds};
    workload.report = [metrics, report = typed->report](double median_seconds, const Metrics& counters) {
      return metrics.values(report(median_seconds, counters));
    };
    return workload;
  };
}

}  // namespace perflab
