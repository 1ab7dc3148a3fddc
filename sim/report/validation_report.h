// validate's written forms: a run's report (per point and criterion, docs/validation.md), the summary
// over studies, the one-line verdict and the per-point CSV.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/gate/validation.h"

namespace perflab {

std::string validation_markdown(const ValidationReport& report);

// One study of `perflab validate`'s closing summary: its report, or why it has none; `problem` also
// names failed runs of a study that has a report.
struct StudyValidation {
  std::string study;
  std::optional<ValidationReport> report;
  std::string problem;
};
// Headed "perflab validate: <title>"; one row per run and criterion (every criterion, with where it applies,
// its value, bound, verdict and detail), then one verdict line per run naming its failed criteria, or why
// it could not run.
std::string validation_summary(const std::vector<StudyValidation>& studies, const std::string& title);
// "held (every judged criterion; 2 not judged)" or "**failed**: NAME (METRIC, WHERE); …".
std::string validation_verdict(const ValidationReport& report);
// One row per point and metric: the point's parameter columns, metric, sim, real_median, real_low,
// real_high, log_error.
std::string validation_csv(const ValidationReport& report);

}  // namespace perflab
