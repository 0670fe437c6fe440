#include "solver/value_scale.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace hs::solver {

namespace {

constexpr int kScaledLargestExponent = 10;  // the largest scaled value lies in [2^10, 2^11)

class ValueScaledSolver final : public WindowSolver {
 public:
  explicit ValueScaledSolver(std::unique_ptr<WindowSolver> inner) : inner_(std::move(inner)) {}

  std::string name() const override { return inner_->name(); }

  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override {
    const int exponent = value_scale_exponent(problem);
    if (exponent == 0) return inner_->solve(problem, options);
    WindowProblem scaled = problem;
    for (Bid& bid : scaled.bids) bid.value = std::ldexp(bid.value, exponent);
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
  if (!(largest > 0.0) || largest >= 1.0) return 0;
  return kScaledLargestExponent - std::ilogb(largest);
}

std::unique_ptr<WindowSolver> with_value_scaling(std::unique_ptr<WindowSolver> solver) {
  return std::make_unique<ValueScaledSolver>(std::move(solver));
}

}  // namespace hs::solver
