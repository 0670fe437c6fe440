#include <limits>

#include "solver/bid_density.hpp"
#include "solver/incumbent.hpp"
#include "solver/lagrangian_branch_and_bound.hpp"
#include "solver/lagrangian_dual.hpp"
#include "solver/local_search.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

namespace {

constexpr double kInitialTheta = 2.0;
constexpr double kMinTheta = 1e-3;
constexpr int kStallIterations = 6;     // halve theta after this many non-improving bounds
// Shares of the effort limit at which each phase must stop.
constexpr double kDualShare = 0.5;
constexpr double kLocalSearchShare = 0.75;

struct DualPhaseResult {
  double bound = std::numeric_limits<double>::infinity();
  std::vector<double> lambda;  // multipliers of the best bound
};

// Subgradient iterations with a greedy repair after each; keeps the best repair.
DualPhaseResult run_dual_phase(const CompactProblem& p, Budget& budget, std::int64_t effort_cap,
                               Incumbent& best) {
  DualPhaseResult phase;
  LagrangianDual dual(p, budget.effort());
  double theta = kInitialTheta;
  int stall = 0;
  for (int iteration = 0; budget.spent() < effort_cap && !budget.exhausted(); ++iteration) {
    const double value = dual.evaluate();
    if (value < phase.bound - 1e-12) {
      phase.bound = value;
      phase.lambda = dual.lambda();
      stall = 0;
    } else if (++stall >= kStallIterations) {
      theta /= 2.0;
      stall = 0;
    }
    if (phase.bound - best.objective <= optimality_tolerance(phase.bound)) break;
    // Alternate the two repair orders: reduced value, and value over priced use.
    const std::vector<double> keys =
        iteration % 2 == 0 ? dual.reduced() : density_keys(p, dual.lambda(), budget.effort());
    Incumbent trial(p, budget.effort());
    insert_in_order(p, order_by_descending(keys, budget.effort()), trial);
    if (trial.objective > best.objective) best = std::move(trial);
    if (phase.bound - best.objective <= optimality_tolerance(phase.bound)) break;
    if (theta < kMinTheta || !dual.step(value - best.objective, theta)) break;
  }
  return phase;
}

}  // namespace

SolveResult LagrangianSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  const std::int64_t limit = options.effort_limit > 0 ? options.effort_limit : kDefaultEffort;
  Budget budget(limit, options.time_limit_s);
  const CompactProblem p = compact(problem);
  Incumbent best(p, budget.effort());
  insert_in_order(p, order_by_descending(density_keys(p, {}, budget.effort()), budget.effort()),
                  best);
  const double trivial_bound = best_bid_bound(p);
  double bound = trivial_bound;
  auto open_gap = [&] { return bound - best.objective > optimality_tolerance(bound); };
  auto share = [limit](double s) { return static_cast<std::int64_t>(s * static_cast<double>(limit)); };
  if (open_gap()) {
    const DualPhaseResult dual = run_dual_phase(p, budget, share(kDualShare), best);
    bound = std::min(bound, dual.bound);
    if (open_gap()) LocalSearch(p, budget).improve(best, share(kLocalSearchShare));
    if (open_gap() && !dual.lambda.empty() &&
        lagrangian_branch_and_bound(p, dual.lambda, budget, limit, best))
      bound = best.objective;  // the search completed: proven optimal
  }
  return finish_result(problem, p, best.bid_of_job, bound, budget);
}

}  // namespace hs::solver
