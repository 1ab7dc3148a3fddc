// main() of harness_bench: Google Benchmark with medians-friendly defaults (7 repetitions, randomly
// interleaved so that machine noise hits the harness and the raw baseline alike), then the goal summary.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "tests/perf/summary_reporter.h"

namespace {

bool has_flag(const std::vector<std::string>& args, const std::string& flag) {
  for (const auto& arg : args) {
    if (arg.rfind(flag, 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  if (!has_flag(args, "--benchmark_repetitions")) {
    args.emplace_back("--benchmark_repetitions=7");
  }
  if (!has_flag(args, "--benchmark_enable_random_interleaving")) {
    args.emplace_back("--benchmark_enable_random_interleaving=true");
  }
  std::vector<char*> pointers;
  pointers.reserve(args.size());
  for (auto& arg : args) {
    pointers.push_back(arg.data());
  }
  int count = static_cast<int>(pointers.size());
  benchmark::Initialize(&count, pointers.data());
  if (benchmark::ReportUnrecognizedArguments(count, pointers.data())) {
    return 1;
  }

  perflab::perf::SummaryReporter reporter(isatty(STDOUT_FILENO) != 0
                                              ? benchmark::ConsoleReporter::OO_ColorTabular
                                              : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_summary(std::cout);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
