// Phi(z) = erfc(-z / sqrt 2) / 2 and its inverse; Boost reports bad arguments through errno and
// returns NaN/inf instead of throwing.
#include "sim/sampling/normal_math.h"

#include <cmath>
#include <limits>

#include <boost/math/special_functions/erf.hpp>

namespace perflab {
namespace {

using NoThrowPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
    boost::math::policies::pole_error<boost::math::policies::errno_on_error>,
    boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
    boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>>;

constexpr double kSqrt2 = 1.41421356237309504880;

}  // namespace

double standard_normal_cdf(double z) {
  return 0.5 * boost::math::erfc(-z / kSqrt2, NoThrowPolicy());
}

double standard_normal_quantile(double p) {
  if (!(p >= 0 && p <= 1)) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  return -kSqrt2 * boost::math::erfc_inv(2 * p, NoThrowPolicy());
}

}  // namespace perflab
