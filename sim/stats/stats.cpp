// Summaries, quantiles and fits. Student-t quantiles come from Boost.Math (no-throw policy), the least
// squares solve from Eigen's column-pivoting QR on the n x 2 design matrix [1, x].
#include "sim/stats/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include <Eigen/Dense>
#include <boost/math/distributions/students_t.hpp>

namespace perflab::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using NoThrowPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
    boost::math::policies::pole_error<boost::math::policies::errno_on_error>,
    boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
    boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>>;

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

Status check_points(const char* fit, const std::vector<double>& x, const std::vector<double>& y) {
  const std::string where = std::string(fit) + ": ";
  if (x.size() != y.size()) {
    return Status::Error(where + "x has " + std::to_string(x.size()) + " values but y has " +
                         std::to_string(y.size()) + ", expected the same number");
  }
  if (x.size() < 2) {
    return Status::Error(where + "got " + std::to_string(x.size()) + " points, expected at least 2");
  }
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
      return Status::Error(where + "point " + std::to_string(i) + " (" + number(x[i]) + ", " + number(y[i]) +
                           ") is not finite, expected finite numbers");
    }
  }
  if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; })) {
    return Status::Error(where + "all x values are equal (" + number(x[0]) +
                         "), expected at least two different x");
  }
  return Status::OK();
}

Status check_positive(const char* fit, const char* axis, const std::vector<double>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] <= 0) {
      return Status::Error(std::string(fit) + ": " + axis + "[" + std::to_string(i) + "] = " +
                           number(values[i]) + ", expected " + axis + " > 0 (the fit takes its logarithm)");
    }
  }
  return Status::OK();
}

std::vector<double> logarithms(const std::vector<double>& values) {
  std::vector<double> logs(values.size());
  std::transform(values.begin(), values.end(), logs.begin(), [](double v) { return std::log(v); });
  return logs;
}

// y = a + b x by least squares, on points already checked.
Result<Fit> least_squares(const char* fit, const std::vector<double>& x, const std::vector<double>& y) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd design(n, 2);
  Eigen::VectorXd target(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    design(i, 0) = 1;
    design(i, 1) = x[i];
    target(i) = y[i];
  }
  const auto qr = design.colPivHouseholderQr();
  if (qr.rank() < 2) {
    return Status::Error(std::string(fit) +
                         ": the x values are too close together to fit a slope, expected x " +
                         "spread over a wider range");
  }
  const Eigen::Vector2d coefficients = qr.solve(target);

  const double residual = (target - design * coefficients).squaredNorm();
  const double total = (target.array() - target.mean()).square().sum();
  const double r2 = total > 0 ? 1 - residual / total : 1;
  // The slope's standard error: residual variance over the spread of x.
  const double spread = (design.col(1).array() - design.col(1).mean()).square().sum();
  const auto dof = static_cast<double>(n - 2);
  const double half_width =
      n > 2 ? student_t_quantile(0.975, dof) * std::sqrt(residual / dof / spread) : kNaN;
  return Fit{coefficients(0), coefficients(1), r2, coefficients(1) - half_width,
             coefficients(1) + half_width};
}

}  // namespace

Summary summarize(const std::vector<double>& xs) {
  Summary s{xs.size(), kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN};
  if (xs.empty()) return s;
  const double n = static_cast<double>(xs.size());
  s.mean = std::accumulate(xs.begin(), xs.end(), 0.0) / n;
  double squares = 0;
  for (double x : xs) squares += (x - s.mean) * (x - s.mean);
  s.stddev = xs.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
  const double half_width = xs.size() > 1 ? student_t_quantile(0.975, n - 1) * s.stddev / std::sqrt(n) : 0;
  s.ci95_low = s.mean - half_width;
  s.ci95_high = s.mean + half_width;
  const auto [min, max] = std::minmax_element(xs.begin(), xs.end());
  s.min = *min;
  s.max = *max;
  s.median = quantile(xs, 0.5);
  return s;
}

double student_t_quantile(double p, double dof) {
  if (!(p > 0 && p < 1 && dof > 0)) return kNaN;
  return boost::math::quantile(boost::math::students_t_distribution<double, NoThrowPolicy>(dof), p);
}

double student_t_cdf(double t, double dof) {
  if (!(dof > 0) || std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  return boost::math::cdf(boost::math::students_t_distribution<double, NoThrowPolicy>(dof), t);
}

double quantile(std::vector<double> xs, double p) {
  if (xs.empty() || !(p >= 0 && p <= 1)) return kNaN;
  std::sort(xs.begin(), xs.end());
  const double position = p * static_cast<double>(xs.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, xs.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return xs[below] + fraction * (xs[above] - xs[below]);
}

Result<Fit> fit_linear(const std::vector<double>& x, const std::vector<double>& y) {
  if (Status status = check_points("fit_linear", x, y); !status.ok()) return status;
  return least_squares("fit_linear", x, y);
}

Result<Fit> fit_log(const std::vector<double>& x, const std::vector<double>& y) {
  if (Status status = check_points("fit_log", x, y); !status.ok()) return status;
  if (Status status = check_positive("fit_log", "x", x); !status.ok()) return status;
  return least_squares("fit_log", logarithms(x), y);
}

Result<Fit> fit_power(const std::vector<double>& x, const std::vector<double>& y) {
  if (Status status = check_points("fit_power", x, y); !status.ok()) return status;
  if (Status status = check_positive("fit_power", "x", x); !status.ok()) return status;
  if (Status status = check_positive("fit_power", "y", y); !status.ok()) return status;
  Result<Fit> log_log = least_squares("fit_power", logarithms(x), logarithms(y));
  if (!log_log.ok()) return log_log;
  return Fit{std::exp(log_log->a), log_log->b, log_log->r2, log_log->b_ci95_low, log_log->b_ci95_high};
}

}  // namespace perflab::stats
