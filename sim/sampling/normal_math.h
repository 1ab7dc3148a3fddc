// The standard normal CDF and its inverse, used to sample the truncated normal and lognormal
// distributions by inverse CDF. Built on Boost.Math's erfc/erfc_inv (portable code, no exceptions).
#pragma once

namespace perflab {

// P(Z <= z) for a standard normal Z.
double standard_normal_cdf(double z);

// The z with standard_normal_cdf(z) == p, for p in (0, 1); -inf at 0, +inf at 1, NaN outside [0, 1].
double standard_normal_quantile(double p);

}  // namespace perflab
