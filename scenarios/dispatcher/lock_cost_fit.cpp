// fit_lock_cost; see lock_cost_fit.h.
#include "scenarios/dispatcher/lock_cost_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

namespace perflab::dispatcher_study {
namespace {

// section_s, move_s, idle_s, cold_ns_per_op, ns_per_op, ns_per_op_per_running_call
constexpr int kConstants = 6;
using Vector = Eigen::Matrix<double, kConstants, 1>;

// One observation's row: what each constant multiplies in its total hold (seconds per unit).
Vector terms(const LockCostTally& t) {
  Vector row;
  row << static_cast<double>(t.sections), static_cast<double>(t.moves), t.idle_decades,
      static_cast<double>(t.cold_ops) * 1e-9, static_cast<double>(t.ops) * 1e-9, t.ops_running_calls * 1e-9;
  return row;
}

LockCostModel with(LockCostModel model, const Vector& c) {
  model.section_s = c[0];
  model.move_s = c[1];
  model.idle_s = c[2];
  model.cold_ns_per_op = c[3];
  model.ns_per_op = c[4];
  model.ns_per_op_per_running_call = c[5];
  return model;
}

// min |A c - b| over c >= 0, A with kConstants columns: the best unconstrained solution over each subset of
// constants left free (the others at 0) that has no negative constant.
Vector nonnegative_least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  Vector best = Vector::Zero();
  double best_error = b.squaredNorm();
  for (int subset = 1; subset < (1 << kConstants); ++subset) {
    std::vector<int> free;
    for (int j = 0; j < kConstants; ++j)
      if (subset & (1 << j)) free.push_back(j);
    Eigen::MatrixXd sub(a.rows(), static_cast<Eigen::Index>(free.size()));
    for (size_t j = 0; j < free.size(); ++j) sub.col(static_cast<Eigen::Index>(j)) = a.col(free[j]);
    const Eigen::VectorXd x = sub.colPivHouseholderQr().solve(b);
    if ((x.array() < 0).any() || !x.allFinite()) continue;
    Vector c = Vector::Zero();
    for (size_t j = 0; j < free.size(); ++j) c[free[j]] = x[static_cast<Eigen::Index>(j)];
    const double error = (a * c - b).squaredNorm();
    if (error < best_error) {
      best_error = error;
      best = c;
    }
  }
  return best;
}

}  // namespace

Result<LockCostFit> fit_lock_cost(const std::vector<LockCostObservation>& observations,
                                  const LockCostModel& cache) {
  const auto n = static_cast<Eigen::Index>(observations.size());
  if (n < kConstants) {
    return Status::Error("the lock cost fit needs at least " + std::to_string(kConstants) + " runs, got " +
                         std::to_string(n));
  }
  Eigen::MatrixXd x(n, kConstants);
  Eigen::VectorXd measured(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const LockCostObservation& o = observations[static_cast<size_t>(i)];
    if (!(o.measured_hold_s > 0)) {
      return Status::Error("run " + o.label + ": measured lock hold must be positive, got " +
                           std::to_string(o.measured_hold_s));
    }
    x.row(i) = terms(o.tally).transpose();
    measured[i] = o.measured_hold_s;
  }
  // Start from relative least squares (rows divided by the measured hold), then Gauss-Newton on the logs:
  // ln(x c) ~ ln(x c0) + x (c - c0) / (x c0), so each step solves for c with rows divided by x c0.
  Eigen::MatrixXd a = x.array().colwise() / measured.array();
  Vector c = nonnegative_least_squares(a, Eigen::VectorXd::Ones(n));
  for (int step = 0; step < 50; ++step) {
    const Eigen::VectorXd predicted = x * c;
    if ((predicted.array() <= 0).any()) break;
    a = x.array().colwise() / predicted.array();
    const Eigen::VectorXd target =
        Eigen::VectorXd::Ones(n) - (predicted.array().log() - measured.array().log()).matrix();
    const Vector next = nonnegative_least_squares(a, target);
    const bool settled = (next - c).cwiseAbs().maxCoeff() <= 1e-9 * std::max(1.0, c.cwiseAbs().maxCoeff());
    c = next;
    if (settled) break;
  }
  LockCostFit fit;
  fit.model = with(cache, c);
  const Eigen::VectorXd predicted = x * c;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r =
        predicted[i] > 0 ? std::log(predicted[i] / measured[i]) : std::numeric_limits<double>::infinity();
    fit.residuals.push_back(r);
    fit.mean_abs_log += std::abs(r) / static_cast<double>(n);
    fit.max_abs_log = std::max(fit.max_abs_log, std::abs(r));
  }
  return fit;
}

}  // namespace perflab::dispatcher_study
