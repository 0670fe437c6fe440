#include "solver/cbc_window_solver.hpp"

#include <algorithm>
#include <cmath>

#include "solver/compact_problem.hpp"
#include "solver/incumbent.hpp"
#include "solver/mip_model.hpp"

namespace hs::solver {

namespace {

// Winning bids from column values; a message if two bids of one job are set.
std::optional<std::string> read_choice(const WindowProblem& problem, const std::vector<double>& x,
                                       WindowSolution& solution) {
  solution.bid_of_job.assign(problem.job_count, -1);
  solution.objective = 0.0;
  for (std::size_t b = 0; b < x.size(); ++b) {
    if (x[b] < 0.5) continue;
    const std::int32_t job = problem.bids[b].job;
    if (solution.bid_of_job[job] >= 0)
      return "CBC chose two bids for job " + std::to_string(job);
    solution.bid_of_job[job] = static_cast<std::int32_t>(b);
    solution.objective += problem.bids[b].value;
  }
  return std::nullopt;
}

SolveResult error_result(std::string message) {
  SolveResult result;
  result.call = CallStatus::Error;
  result.status = SolveStatus::Error;
  result.message = std::move(message);
  return result;
}

}  // namespace

SolveResult CbcWindowSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  if (problem.bids.empty()) {  // nothing to choose (CBC, given no column, returns no values)
    SolveResult none;
    none.status = SolveStatus::Optimal;
    none.solution.bid_of_job.assign(problem.job_count, -1);
    none.bound_source = BoundSource::Search;
    return none;
  }
  const double limit = options.time_limit_s > 0.0 ? options.time_limit_s : kDefaultTimeLimit;
  const MipResult mip = solve_mip_cbc(window_to_mip(problem), limit);
  if (mip.call == CallStatus::Error) return error_result(mip.message);
  // Choosing no bid always fits, so no window is infeasible: CBC's numerics failed (a
  // window of amounts and capacities of 2^31 - 1 did this).
  if (mip.status == SolveStatus::Infeasible)
    return error_result("CBC reported the window infeasible, which no window is (no bid at all always fits)");
  SolveResult result;
  result.status = mip.status;
  result.message = mip.message;
  result.seconds = mip.seconds;
  result.solution.bid_of_job.assign(problem.job_count, -1);
  if (mip.values.empty()) {
    result.status = SolveStatus::NoSolution;
    return result;
  }
  if (auto wrong = read_choice(problem, mip.values, result.solution)) return error_result(*wrong);
  if (auto violation = check_solution(problem, result.solution))
    return error_result("CBC solution fails the check: " + *violation);
  result.bound = std::max(mip.bound, result.solution.objective);
  result.bound_source = BoundSource::Backend;
  result.gap = (result.bound - result.solution.objective) / std::max(1.0, std::fabs(result.bound));
  return result;
}

}  // namespace hs::solver
