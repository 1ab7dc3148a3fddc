// Statistics for result tables: summaries with a 95% Student-t interval, quantiles, and least-squares
// trend fits (linear, logarithmic, power) used to describe how a metric grows with a swept knob.
#pragma once

#include <cstddef>
#include <vector>

#include "models/common/status.h"

namespace perflab::stats {

struct Summary {
  size_t n;
  double mean, stddev;         // stddev: sample standard deviation (n - 1); 0 when n == 1
  double ci95_low, ci95_high;  // 95% Student-t interval on the mean; equal to the mean when n == 1
  double min, max, median;
};

// All fields but n are NaN for an empty sample.
Summary summarize(const std::vector<double>& xs);

// The p-quantile of Student's t with `dof` degrees of freedom (dof may be fractional);
// NaN unless 0 < p < 1 and dof > 0.
double student_t_quantile(double p, double dof);
// P(T <= t) for Student's t with `dof` degrees of freedom; NaN unless dof > 0 and t is not NaN.
double student_t_cdf(double t, double dof);

// The p-quantile of the sample with linear interpolation between order statistics (numpy's default,
// Hyndman-Fan type 7): quantile(xs, 0.5) is the median, quantile(xs, 0.99) the p99.
// NaN for an empty sample or p outside [0, 1].
double quantile(std::vector<double> xs, double p);

struct Fit {
  double a, b;  // coefficients, as in each function's formula
  double r2;    // coefficient of determination in the space the fit is made in (log-log for power)
  double b_ci95_low, b_ci95_high;  // 95% Student-t interval of the slope b (n - 2 dof); NaN for 2 points
};

// Least squares (Eigen, QR). Errors for mismatched sizes, fewer than 2 points, all x equal, non-finite
// values, and (log, power) x <= 0 or (power) y <= 0.
Result<Fit> fit_linear(const std::vector<double>& x, const std::vector<double>& y);  // y = a + b x
Result<Fit> fit_log(const std::vector<double>& x, const std::vector<double>& y);     // y = a + b ln x
Result<Fit> fit_power(const std::vector<double>& x, const std::vector<double>& y);   // y = a x^b

}  // namespace perflab::stats
