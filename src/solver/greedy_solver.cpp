#include "solver/bid_density.hpp"
#include "solver/incumbent.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

SolveResult GreedySolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  Budget budget(options.effort_limit > 0 ? options.effort_limit : INT64_MAX, options.time_limit_s);
  const CompactProblem compact_problem = compact_used_nodes(problem);
  Incumbent incumbent(compact_problem, budget.effort());
  // Without a limit one whole pass; with one, the pass stops before the limit.
  insert_in_order_within(compact_problem, density_order_within(compact_problem, budget), incumbent,
                         budget);
  SolveResult result = finish_result(problem, compact_problem, incumbent.bid_of_job,
                                     best_bid_bound(compact_problem), budget);
  result.bound_source = BoundSource::BestBids;
  return result;
}

}  // namespace hs::solver
