// The console reporter of harness_bench, plus the goal summary printed after all benchmarks: medians of
// per-repetition counters (not means), the harness/raw ratio and the per-point overhead, each against its
// goal.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace perflab::perf {

class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;
  void ReportRuns(const std::vector<Run>& reports) override;

  // Prints each goal whose measurements ran (a --benchmark_filter may leave some out).
  void print_summary(std::ostream& out) const;
  bool failed() const { return failed_; }

 private:
  // Median over repetitions of `counter` of `benchmark` ("BM_X/name:value…"); NaN if never measured.
  double median(const std::string& benchmark, const std::string& counter) const;
  size_t repetitions(const std::string& benchmark) const;

  // Per-repetition counters; when only aggregates are displayed (--benchmark_display_aggregates_only),
  // Google Benchmark's own medians stand in.
  std::map<std::string, std::map<std::string, std::vector<double>>> samples_;
  std::map<std::string, std::map<std::string, double>> aggregate_medians_;
  std::map<std::string, size_t> aggregate_repetitions_;
  bool failed_ = false;
};

}  // namespace perflab::perf
