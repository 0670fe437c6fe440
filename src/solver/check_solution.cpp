// Independent of every solver: re-derives node loads from the problem's bids.
#include <algorithm>
#include <cmath>
#include <cstdio>
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

std::optional<std::string> first_out_of_range(const WindowProblem& problem,
                                              const WindowSolution& solution) {
  for (std::int32_t bid : solution.bid_of_job) {
    if (bid < 0) continue;
    for (const NodeUse& use : problem.bids[bid].uses)
      if (use.node < 0 || use.node >= problem.node_count)
        return "bid " + std::to_string(bid) + " uses node out of range " + std::to_string(use.node);
  }
  return std::nullopt;
}

std::string overload_message(std::int32_t node, std::int32_t d, std::int64_t used,
                             std::int32_t capacity) {
  return "node " + std::to_string(node) + " dimension " + std::to_string(d) + " uses " +
         std::to_string(used) + " of capacity " + std::to_string(capacity);
}

// Every node, in order: the first row whose load exceeds its capacity.
std::optional<std::string> check_every_node(const WindowProblem& problem,
                                            const WindowSolution& solution) {
  std::vector<std::int64_t> load(static_cast<std::size_t>(problem.node_count) * problem.dims, 0);
  for (std::int32_t bid : solution.bid_of_job) {
    if (bid < 0) continue;
    for (const NodeUse& use : problem.bids[bid].uses)
      for (std::int32_t d = 0; d < problem.dims; ++d)
        load[static_cast<std::size_t>(use.node) * problem.dims + d] += use.amount[d];
  }
  for (std::int32_t node = 0; node < problem.node_count; ++node)
    for (std::int32_t d = 0; d < problem.dims; ++d) {
      const std::int64_t used = load[static_cast<std::size_t>(node) * problem.dims + d];
      if (used > problem.cap(node, d)) return overload_message(node, d, used, problem.cap(node, d));
    }
  return std::nullopt;
}

// The same answer as check_every_node when no capacity is negative (an unused node then
// cannot be overloaded): only the used nodes' loads are summed and tested, in node order.
std::optional<std::string> check_used_nodes(const WindowProblem& problem,
                                            const WindowSolution& solution) {
  std::vector<std::int32_t> nodes;
  for (std::int32_t bid : solution.bid_of_job)
    if (bid >= 0)
      for (const NodeUse& use : problem.bids[bid].uses) nodes.push_back(use.node);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::vector<std::int64_t> load(nodes.size() * problem.dims, 0);
  for (std::int32_t bid : solution.bid_of_job) {
    if (bid < 0) continue;
    for (const NodeUse& use : problem.bids[bid].uses) {
      const auto k = static_cast<std::size_t>(
          std::lower_bound(nodes.begin(), nodes.end(), use.node) - nodes.begin());
      for (std::int32_t d = 0; d < problem.dims; ++d) load[k * problem.dims + d] += use.amount[d];
    }
  }
  for (std::size_t k = 0; k < nodes.size(); ++k)
    for (std::int32_t d = 0; d < problem.dims; ++d)
      if (load[k * problem.dims + d] > problem.cap(nodes[k], d))
        return overload_message(nodes[k], d, load[k * problem.dims + d], problem.cap(nodes[k], d));
  return std::nullopt;
}

std::optional<std::string> check_capacity(const WindowProblem& problem,
                                          const WindowSolution& solution) {
  if (auto defect = first_out_of_range(problem, solution)) return defect;
  const bool any_negative = std::any_of(problem.capacity.begin(), problem.capacity.end(),
                                        [](std::int32_t c) { return c < 0; });
  return any_negative ? check_every_node(problem, solution) : check_used_nodes(problem, solution);
}

std::optional<std::string> check_objective(const WindowProblem& problem,
                                           const WindowSolution& solution) {
  // Relative to the values themselves: on bid values of 1e-12 an absolute floor (1e-9,
  // before) let an objective twice the won bids' sum pass.
  double total = 0.0, scale = std::fabs(solution.objective);
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

std::optional<std::string> check_claims(const WindowProblem& problem, const SolveResult& result,
                                        double optimum) {
  if (result.call != CallStatus::Ok) return "the call failed: " + result.message;
  if (auto defect = check_solution(problem, result.solution)) return "the answer: " + *defect;
  double largest = 0.0;
  for (const Bid& bid : problem.bids) largest = std::max(largest, std::fabs(bid.value));
  const double tolerance = 1e-9 * (std::fabs(optimum) + largest);
  const auto show = [](double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return std::string(text);
  };
  const std::string against = " the optimum " + show(optimum);
  if (result.solution.objective > optimum + tolerance)
    return "objective " + show(result.solution.objective) + " above" + against;
  if (result.bound < optimum - tolerance) return "bound " + show(result.bound) + " below" + against;
  if (result.status == SolveStatus::Optimal && result.solution.objective < optimum - tolerance)
    return "called optimal at " + show(result.solution.objective) + ", below" + against;
  return std::nullopt;
}

}  // namespace hs::solver
