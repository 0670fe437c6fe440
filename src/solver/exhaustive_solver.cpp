#include "solver/enumeration_search.hpp"
#include "solver/incumbent.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

SolveResult ExhaustiveSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  if (problem.job_count > kMaxJobs)
    return defect_result("exhaustive solver accepts at most " + std::to_string(kMaxJobs) +
                         " jobs, got " + std::to_string(problem.job_count));
  Budget budget(options.effort_limit > 0 ? options.effort_limit : kDefaultEffort,
                options.time_limit_s);
  const CompactProblem p = compact(problem);
  EnumerationResult search = enumerate_choices(p, budget, budget.limit(), -1.0, 1e-12);
  const bool complete = search.complete;
  if (!search.improved) search.bid_of_job.assign(static_cast<std::size_t>(p.jobs), -1);
  const double bound = complete ? objective_of(p, search.bid_of_job) : best_bid_bound(p);
  SolveResult result = finish_result(problem, p, search.bid_of_job, bound, budget);
  result.bound_source = complete ? BoundSource::Search : BoundSource::BestBids;
  return result;
}

}  // namespace hs::solver
