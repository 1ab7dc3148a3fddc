// Collects every repetition's counters as they are reported, then summarises them against the goals.
#include "tests/perf/summary_reporter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tests/perf/bench_config.h"

namespace perflab::perf {
namespace {

const char* verdict(bool met) {
  return met ? "MET" : "NOT MET";
}

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char line[200];
  std::snprintf(line, sizeof line, pattern, a, b, c);
  return line;
}

}  // namespace

void SummaryReporter::ReportRuns(const std::vector<Run>& reports) {
  ConsoleReporter::ReportRuns(reports);
  for (const auto& run : reports) {
    if (run.error_occurred) {
      failed_ = true;
      continue;
    }
    const std::string name = run.run_name.function_name + "/" + run.run_name.args;
    if (run.run_type == Run::RT_Iteration) {
      for (const auto& [counter, value] : run.counters) {
        samples_[name][counter].push_back(value.value);
      }
    } else if (run.aggregate_name == "median") {
      for (const auto& [counter, value] : run.counters) {
        aggregate_medians_[name][counter] = value.value;
      }
      aggregate_repetitions_[name] = static_cast<size_t>(run.iterations);
    }
  }
}

double SummaryReporter::median(const std::string& benchmark, const std::string& counter) const {
  auto found = samples_.find(benchmark);
  if (found == samples_.end() || found->second.count(counter) == 0) {
    auto aggregate = aggregate_medians_.find(benchmark);
    if (aggregate == aggregate_medians_.end() || aggregate->second.count(counter) == 0) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    return aggregate->second.at(counter);
  }
  std::vector<double> values = found->second.at(counter);
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

size_t SummaryReporter::repetitions(const std::string& benchmark) const {
  auto found = samples_.find(benchmark);
  if (found != samples_.end() && !found->second.empty()) {
    return found->second.begin()->second.size();
  }
  auto aggregate = aggregate_repetitions_.find(benchmark);
  return aggregate == aggregate_repetitions_.end() ? 0 : aggregate->second;
}

void SummaryReporter::print_summary(std::ostream& out) const {
  const std::string harness_name = harness_benchmark();
  const std::string raw_name = raw_benchmark();
  double harness = median(harness_name, "msgs_per_s");
  double raw = median(raw_name, "msgs_per_s");
  double jobs1 = median(point_benchmark(1), "ms_per_point");
  double jobs2 = median(point_benchmark(2), "ms_per_point");
  out << "\n== harness goals (medians over repetitions) ==\n";
  if (!std::isnan(harness)) {
    out << format("harness pingpong: %.0f simulated msgs/s (%.0f runs)\n", harness,
                  static_cast<double>(repetitions(harness_name)));
  }
  if (!std::isnan(raw)) {
    out << format("raw s4u pingpong: %.0f simulated msgs/s (%.0f runs)\n", raw,
                  static_cast<double>(repetitions(raw_name)));
  }
  if (!std::isnan(harness) && !std::isnan(raw)) {
    out << format("simulated time per run: harness %.3f s, raw %.3f s (must be equal)\n",
                  median(harness_name, "sim_s"), median(raw_name, "sim_s"));
    out << format("harness/raw ratio: %.3f (goal >= %.1f): ", harness / raw, kRatioGoal)
        << verdict(harness / raw >= kRatioGoal) << "\n";
  }
  if (!std::isnan(jobs1)) {
    out << format("per-point overhead, jobs 1: %.2f ms/point (goal <= %.0f ms): ", jobs1, kPointGoalMs)
        << verdict(jobs1 <= kPointGoalMs) << "\n";
  }
  if (!std::isnan(jobs2)) {
    out << format("per-point overhead, jobs 2: %.2f ms/point (jobs 1 / jobs 2 = %.2f)\n", jobs2,
                  jobs1 / jobs2);
  }
}

}  // namespace perflab::perf
