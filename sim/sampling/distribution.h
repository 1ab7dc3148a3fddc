// Distribution: a random quantity written in a scenario file, e.g. network latency
// "uniform(0ms, 250ms)" or a study's own delay "lognormal(20ms, 0.5)". Parsed once, then sampled from
// an Rng many times. A value type, cheap to copy (an empirical sample is shared, never copied).
//
// Kinds and how they are sampled from Rng::uniform01() (all by inverse CDF, so one draw per sample):
//   constant(x)                x
//   uniform(a, b)              a + (b - a) u                               a <= b
//   normal(mean, sd)           normal TRUNCATED at 0 (never negative)      mean >= 0, sd > 0
//   lognormal(median, sigma)   median * exp(sigma Z); sigma has no unit    median > 0, sigma > 0
//   exponential(mean)          -mean ln(1 - u)                             mean > 0
//   pareto(scale, shape)       scale (1 - u)^(-1/shape); shape no unit     scale > 0, shape > 0
//   empirical(file.csv)        one of the file's values, uniformly         see empirical_file.h
// A bare value ("20ms") means constant(20ms). No sample is ever negative.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "models/common/status.h"
#include "sim/sampling/rng.h"
#include "sim/sampling/units.h"

namespace perflab {

class Distribution {
 public:
  // `quantity` gives the unit of the arguments (kDuration for latencies); `base_dir` resolves a
  // relative empirical(file.csv) path (the scenario file's folder). Errors quote the spec and say what
  // was expected.
  static Result<Distribution> parse(std::string_view spec, Quantity quantity,
                                    const std::filesystem::path& base_dir);

  // constant(value), for defaults and tests.
  static Distribution constant(double value, Quantity quantity);

  double sample(Rng& rng) const;
  // Closed form; infinity where the mean does not exist (pareto with shape <= 1). For normal it is the
  // mean of the truncated distribution: mean + sd phi(mean/sd) / Phi(mean/sd).
  double mean() const;
  // Canonical text, e.g. "uniform(0 ms, 250 ms)", for CSV columns and tables; parse() reads it back.
  const std::string& spec() const { return spec_; }

 private:
  struct Constant {
    double value;
  };
  struct Uniform {
    double low, high;
  };
  struct TruncatedNormal {
    double mean, sd;
    double mass_above_zero;  // Phi(mean / sd): the share of the untruncated normal that is kept
  };
  struct LogNormal {
    double median, sigma;
  };
  struct Exponential {
    double mean;
  };
  struct Pareto {
    double scale, shape;
  };
  struct Empirical {
    std::shared_ptr<const std::vector<double>> values;
    double mean;
  };
  using Kind = std::variant<Constant, Uniform, TruncatedNormal, LogNormal, Exponential, Pareto, Empirical>;

  template <class K>
  Distribution(K kind, std::string spec)
      : kind_(std::in_place_type<K>, std::move(kind)), spec_(std::move(spec)) {}

  Kind kind_;
  std::string spec_;
};

}  // namespace perflab
