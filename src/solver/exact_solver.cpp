#include <algorithm>

#include "solver/incumbent.hpp"
#include "solver/lp_branch_and_bound.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

namespace {

SolveResult run_default(const WindowProblem& problem, const SolverOptions& options,
                        std::int64_t effort_limit) {
  SolverOptions o = options;
  o.effort_limit = effort_limit;
  o.exact_bids = 0;
  o.lp_bound = false;  // the tree bounds by its own LP
  return LagrangianSolver().solve(problem, o);
}

}  // namespace

SolveResult ExactSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  const SolveResult seed = run_default(problem, options, 0);
  if (seed.call != CallStatus::Ok || seed.status == SolveStatus::Optimal) return seed;
  const CompactProblem p = compact_used_nodes(problem);
  // A wall-clock cap covers the seed and the tree together (a cap already spent leaves the
  // tree a moment, enough to stop at once).
  const double time_left =
      options.time_limit_s > 0 ? std::max(1e-9, options.time_limit_s - seed.seconds) : 0.0;
  Budget budget(options.effort_limit > 0 ? options.effort_limit : kDefaultEffort, time_left);
  std::vector<std::int32_t> best = seed.solution.bid_of_job;
  // Without the capacity rows a neighbouring node's row implies: the same LP, and on windows
  // captured from replays (bids spanning runs of equal nodes) 3–6 times fewer nonzeros, so
  // every solve, cut round and separation in the tree costs that much less.
  const LpSearchResult tree =
      lp_branch_and_bound(p, WindowLpOptions{.drop_dominated_rows = true}, budget, best);
  double bound = std::min(seed.bound, tree.bound);
  SolveResult result = finish_result(problem, p, best, tree.complete ? objective_of(p, best) : bound,
                                     budget);
  result.bound_source = tree.complete           ? BoundSource::Search
                        : tree.bound < seed.bound ? BoundSource::Lp
                                                  : seed.bound_source;
  result.effort += seed.effort;
  result.seconds += seed.seconds;  // the solve's time, as its effort, includes the seed
  return result;
}

}  // namespace hs::solver
