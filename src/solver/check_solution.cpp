// Independent of every solver: re-derives node loads from the problem's bids.
#include <cmath>
#include <vector>

#include "solver/window_problem.hpp"

namespace hs::solver {

namespace {

std::optional<std::string> check_choice(const WindowProblem& problem,
                                        const WindowSolution& solution) {
  if (solution.bid_of_job.size() != static_cast<std::size_t>(problem.job_count))
    return "bid_of_job has " + std::to_string(solution.bid_of_job.size()) +
           " entries for " + std::to_string(problem.job_count) + " jobs";
  for (std::int32_t job = 0; job < problem.job_count; ++job) {
    const std::int32_t bid = solution.bid_of_job[job];
    if (bid == -1) continue;
    if (bid < 0 || static_cast<std::size_t>(bid) >= problem.bids.size())
      return "job " + std::to_string(job) + " has invalid bid index " + std::to_string(bid);
    if (problem.bids[bid].job != job)
      return "job " + std::to_string(job) + " won bid " + std::to_string(bid) +
             " which belongs to job " + std::to_string(problem.bids[bid].job);
  }
  return std::nullopt;
}

std::optional<std::string> check_capacity(const WindowProblem& problem,
                                          const WindowSolution& solution) {
  std::vector<std::int64_t> load(static_cast<std::size_t>(problem.node_count) * problem.dims, 0);
  for (std::int32_t bid : solution.bid_of_job) {
    if (bid < 0) continue;
    for (const NodeUse& use : problem.bids[bid].uses) {
      if (use.node < 0 || use.node >= problem.node_count)
        return "bid " + std::to_string(bid) + " uses node out of range " + std::to_string(use.node);
      for (std::int32_t d = 0; d < problem.dims; ++d)
        load[static_cast<std::size_t>(use.node) * problem.dims + d] += use.amount[d];
    }
  }
  for (std::int32_t node = 0; node < problem.node_count; ++node)
    for (std::int32_t d = 0; d < problem.dims; ++d) {
      const std::int64_t used = load[static_cast<std::size_t>(node) * problem.dims + d];
      if (used > problem.cap(node, d))
        return "node " + std::to_string(node) + " dimension " + std::to_string(d) + " uses " +
               std::to_string(used) + " of capacity " + std::to_string(problem.cap(node, d));
    }
  return std::nullopt;
}

std::optional<std::string> check_objective(const WindowProblem& problem,
                                           const WindowSolution& solution) {
  double total = 0.0, scale = 1.0;
  for (std::int32_t bid : solution.bid_of_job)
    if (bid >= 0) {
      total += problem.bids[bid].value;
      scale += std::fabs(problem.bids[bid].value);
    }
  if (!(std::fabs(total - solution.objective) <= 1e-9 * scale))
    return "objective " + std::to_string(solution.objective) + " differs from the sum of won " +
           "bid values " + std::to_string(total);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_solution(const WindowProblem& problem,
                                          const WindowSolution& solution) {
  if (problem.dims < 1 || problem.dims > kMaxDims)
    return "problem dims out of range: " + std::to_string(problem.dims);
  if (problem.capacity.size() != static_cast<std::size_t>(problem.node_count) * problem.dims)
    return "problem capacity size does not match node_count * dims";
  if (auto defect = check_choice(problem, solution)) return defect;
  if (auto defect = check_capacity(problem, solution)) return defect;
  return check_objective(problem, solution);
}

}  // namespace hs::solver
