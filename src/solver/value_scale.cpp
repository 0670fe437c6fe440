#include "solver/value_scale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace hs::solver {

namespace {

constexpr int kScaledLargestExponent = 10;  // the largest scaled value lies in [2^10, 2^11)
// Values from 2^64 on are scaled down: CLP asserts (and the process aborts) on objective
// coefficients of 1e25 and more. Replays' windows stay below 2^35 (a basic priority of
// 2^32 a job, times a preference at most a few).
constexpr double kLargeValue = 18446744073709551616.0;  // 2^64

class ValueScaledSolver final : public WindowSolver {
 public:
  explicit ValueScaledSolver(std::unique_ptr<WindowSolver> inner) : inner_(std::move(inner)) {}

  std::string name() const override { return inner_->name(); }

  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override {
    const int exponent = value_scale_exponent(problem);
    if (exponent == 0) return inner_->solve(problem, options);
    WindowProblem scaled = problem;
    for (Bid& bid : scaled.bids) {
      // A value more than 2^1000 times below the largest would underflow to 0 when scaled
      // down; it stays the least positive one, as good as nothing beside the others.
      bid.value = std::ldexp(bid.value, exponent);
      if (bid.value == 0.0) bid.value = std::numeric_limits<double>::denorm_min();
    }
    SolveResult result = inner_->solve(scaled, options);
    result.solution.objective = std::ldexp(result.solution.objective, -exponent);
    result.bound = std::ldexp(result.bound, -exponent);
    return result;
  }

 private:
  std::unique_ptr<WindowSolver> inner_;
};

}  // namespace

int value_scale_exponent(const WindowProblem& problem) {
  double largest = 0.0;
  for (const Bid& bid : problem.bids)
    if (std::isfinite(bid.value)) largest = std::max(largest, bid.value);
  if (!(largest > 0.0) || (largest >= 1.0 && largest < kLargeValue)) return 0;
  return kScaledLargestExponent - std::ilogb(largest);
}

std::unique_ptr<WindowSolver> with_value_scaling(std::unique_ptr<WindowSolver> solver) {
  return std::make_unique<ValueScaledSolver>(std::move(solver));
}

}  // namespace hs::solver
