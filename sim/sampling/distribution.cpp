// Distribution: parsing a spec into one of the kinds, sampling each by inverse CDF, closed-form means.
#include "sim/sampling/distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "sim/sampling/empirical_file.h"
#include "sim/sampling/normal_math.h"
#include "sim/sampling/spec_syntax.h"

namespace perflab {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Parameter {
  const char* name;
  bool dimensionless;  // read as a plain number whatever the distribution's quantity
  bool positive;       // must be > 0 (otherwise >= 0)
};

struct KindSyntax {
  const char* name;
  std::vector<Parameter> parameters;
};

const std::vector<KindSyntax>& kind_syntaxes() {
  static const std::vector<KindSyntax> kSyntaxes = {
      {"constant", {{"value", false, false}}},
      {"uniform", {{"low", false, false}, {"high", false, false}}},
      {"normal", {{"mean", false, false}, {"sd", false, true}}},
      {"lognormal", {{"median", false, true}, {"sigma", true, true}}},
      {"exponential", {{"mean", false, true}}},
      {"pareto", {{"scale", false, true}, {"shape", true, true}}},
      {"empirical", {{"file", false, false}}},
  };
  return kSyntaxes;
}

std::string kind_names() {
  std::string names;
  for (const KindSyntax& syntax : kind_syntaxes()) {
    if (!names.empty()) names += ", ";
    names += syntax.name;
  }
  return names;
}

std::string parameter_names(const KindSyntax& syntax) {
  std::string names;
  for (const Parameter& parameter : syntax.parameters) {
    if (!names.empty()) names += ", ";
    names += parameter.name;
  }
  return names;
}

// Uniform in (0, 1): uniform01() with the (2^-53 likely) zero drawn again, so quantiles stay finite.
double uniform_open01(Rng& rng) {
  double u = rng.uniform01();
  while (u == 0) u = rng.uniform01();
  return u;
}

std::string unquote(const std::string& text) {
  const bool quoted =
      text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front();
  return quoted ? text.substr(1, text.size() - 2) : text;
}

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

Result<Distribution> Distribution::parse(std::string_view spec, Quantity quantity,
                                         const std::filesystem::path& base_dir) {
  const std::string where = "\"" + std::string(spec) + "\": ";
  Result<SpecCall> split = split_spec(spec);
  if (!split.ok()) return split.status();
  const SpecCall& call = *split;

  if (call.name.empty()) {
    Result<double> value = parse_quantity(call.inside, quantity);
    if (!value.ok()) {
      return Status::Error(where + "expected a distribution (one of " + kind_names() + ") or a single " +
                           quantity_name(quantity) + ": " + value.status().message());
    }
    if (*value < 0) return Status::Error(where + "expected a value >= 0");
    return constant(*value, quantity);
  }

  const auto& syntaxes = kind_syntaxes();
  const auto syntax = std::find_if(syntaxes.begin(), syntaxes.end(),
                                   [&](const KindSyntax& s) { return call.name == s.name; });
  if (syntax == syntaxes.end()) {
    return Status::Error(where + "unknown distribution \"" + call.name + "\", expected one of " +
                         kind_names());
  }

  if (call.name == "empirical") {
    if (call.inside.empty()) {
      return Status::Error(where +
                           "empirical takes 1 argument (file), got 0, expected e.g. empirical(latency.csv)");
    }
    const std::filesystem::path file = unquote(call.inside);
    Result<std::vector<double>> values =
        read_empirical_values(file.is_absolute() ? file : base_dir / file, quantity);
    if (!values.ok()) return values.status().with_context(where);
    const double mean = std::accumulate(values->begin(), values->end(), 0.0) / values->size();
    return Distribution(
        Empirical{std::make_shared<const std::vector<double>>(std::move(values).value()), mean},
        "empirical(" + call.inside + ")");
  }

  const std::vector<Parameter>& parameters = syntax->parameters;
  if (call.args.size() != parameters.size()) {
    return Status::Error(where + call.name + " takes " + std::to_string(parameters.size()) +
                         (parameters.size() == 1 ? " argument (" : " arguments (") +
                         parameter_names(*syntax) + "), got " + std::to_string(call.args.size()));
  }
  std::vector<double> args;
  std::string canonical = call.name + "(";
  for (size_t i = 0; i < parameters.size(); ++i) {
    const Quantity arg_quantity = parameters[i].dimensionless ? Quantity::kNumber : quantity;
    Result<double> value = parse_quantity(call.args[i], arg_quantity);
    if (!value.ok()) return value.status().with_context(where + parameters[i].name + ": ");
    if (parameters[i].positive && !(*value > 0)) {
      return Status::Error(where + parameters[i].name + " must be > 0, got " + call.args[i]);
    }
    if (*value < 0) return Status::Error(where + parameters[i].name + " must be >= 0, got " + call.args[i]);
    args.push_back(*value);
    canonical += (i == 0 ? "" : ", ") + format_quantity(*value, arg_quantity);
  }
  canonical += ")";

  if (call.name == "constant") return Distribution(Constant{args[0]}, canonical);
  if (call.name == "uniform") {
    if (args[0] > args[1]) {
      return Status::Error(where + "low must be <= high, got low " + call.args[0] + " > high " +
                           call.args[1]);
    }
    return Distribution(Uniform{args[0], args[1]}, canonical);
  }
  if (call.name == "normal") {
    return Distribution(TruncatedNormal{args[0], args[1], standard_normal_cdf(args[0] / args[1])}, canonical);
  }
  if (call.name == "lognormal") return Distribution(LogNormal{args[0], args[1]}, canonical);
  if (call.name == "exponential") return Distribution(Exponential{args[0]}, canonical);
  return Distribution(Pareto{args[0], args[1]}, canonical);
}

Distribution Distribution::constant(double value, Quantity quantity) {
  return Distribution(Constant{value}, "constant(" + format_quantity(value, quantity) + ")");
}

double Distribution::sample(Rng& rng) const {
  return std::visit(
      Overloaded{
          [](const Constant& d) { return d.value; },
          [&](const Uniform& d) { return d.low + (d.high - d.low) * rng.uniform01(); },
          [&](const TruncatedNormal& d) {
            // Inverse of the truncated survival function P(X > x) = Phi((mean - x)/sd) / Phi(mean/sd):
            // the argument of the quantile lies in (0, Phi(mean/sd)], so x >= 0 and stays finite.
            const double survival = 1 - rng.uniform01();
            const double x = d.mean - d.sd * standard_normal_quantile(survival * d.mass_above_zero);
            return std::max(0.0, x);
          },
          [&](const LogNormal& d) {
            return d.median * std::exp(d.sigma * standard_normal_quantile(uniform_open01(rng)));
          },
          [&](const Exponential& d) { return -d.mean * std::log1p(-rng.uniform01()); },
          [&](const Pareto& d) { return d.scale * std::pow(1 - rng.uniform01(), -1 / d.shape); },
          [&](const Empirical& d) { return (*d.values)[rng.uniform_index(d.values->size())]; },
      },
      kind_);
}

double Distribution::mean() const {
  return std::visit(Overloaded{
                        [](const Constant& d) { return d.value; },
                        [](const Uniform& d) { return (d.low + d.high) / 2; },
                        [](const TruncatedNormal& d) {
                          const double z = d.mean / d.sd;
                          const double density = std::exp(-z * z / 2) / std::sqrt(2 * kPi);
                          return d.mean + d.sd * density / d.mass_above_zero;
                        },
                        [](const LogNormal& d) { return d.median * std::exp(d.sigma * d.sigma / 2); },
                        [](const Exponential& d) { return d.mean; },
                        [](const Pareto& d) {
                          if (d.shape <= 1) return std::numeric_limits<double>::infinity();
                          return d.shape * d.scale / (d.shape - 1);
                        },
                        [](const Empirical& d) { return d.mean; },
                    },
                    kind_);
}

}  // namespace perflab
