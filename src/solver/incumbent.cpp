#include "solver/incumbent.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace hs::solver {

void Incumbent::clear() {
  for (std::int32_t& bid : bid_of_job) {
    if (bid >= 0) ledger.give_back(bid);
    bid = -1;
  }
  objective = 0.0;
}

Incumbent incumbent_of(const CompactProblem& problem, const std::vector<std::int32_t>& bid_of_job,
                       std::int64_t& effort, bool prepaid) {
  Incumbent incumbent(problem, effort);
  for (std::int32_t bid : bid_of_job) {
    if (bid < 0) continue;
    if (prepaid) incumbent.ledger.take_prepaid(bid);
    else incumbent.ledger.take(bid);
    incumbent.bid_of_job[problem.job_of_bid[bid]] = bid;
    incumbent.objective += problem.value[bid];
  }
  return incumbent;
}

void insert_in_order(const CompactProblem& problem, const std::vector<std::int32_t>& order,
                     Incumbent& incumbent) {
  for (std::int32_t bid : order) {
    const std::int32_t job = problem.job_of_bid[bid];
    if (incumbent.bid_of_job[job] >= 0 || !problem.usable[bid]) continue;
    if (!incumbent.ledger.fits(bid)) continue;
    incumbent.ledger.take(bid);
    incumbent.bid_of_job[job] = bid;
    incumbent.objective += problem.value[bid];
  }
}

void insert_in_order_within(const CompactProblem& problem, const std::vector<std::int32_t>& order,
                            Incumbent& incumbent, const Budget& budget) {
  for (std::int32_t bid : order) {
    const std::int32_t job = problem.job_of_bid[bid];
    if (incumbent.bid_of_job[job] >= 0 || !problem.usable[bid]) continue;
    if (!budget.affordable(2 * (static_cast<std::int64_t>(problem.use_count(bid)) + 1))) return;
    if (!incumbent.ledger.fits(bid)) continue;
    incumbent.ledger.take(bid);
    incumbent.bid_of_job[job] = bid;
    incumbent.objective += problem.value[bid];
  }
}

std::vector<std::int32_t> order_by_descending(const std::vector<double>& key,
                                              std::int64_t& effort) {
  DescendingOrder order;
  return order.of(key, effort);
}

const std::vector<std::int32_t>& DescendingOrder::of(const std::vector<double>& key,
                                                     std::int64_t& effort) {
  // Sorting (key, index) pairs in place is faster than an indirect comparison; ties by
  // index make the order unique, so it is the same order either way.
  keyed_.resize(key.size());
  for (std::size_t i = 0; i < keyed_.size(); ++i) keyed_[i] = {key[i], static_cast<std::int32_t>(i)};
  std::sort(keyed_.begin(), keyed_.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  order_.resize(keyed_.size());
  for (std::size_t i = 0; i < keyed_.size(); ++i) order_[i] = keyed_[i].second;
  effort += sort_effort(order_.size());
  return order_;
}

std::int64_t sort_effort(std::size_t n) {
  return static_cast<std::int64_t>(n) * (1 + static_cast<std::int64_t>(std::bit_width(n)));
}

double optimality_tolerance(double bound) { return 1e-6 + 1e-12 * std::fabs(bound); }

SolveResult finish_result(const WindowProblem& problem, const CompactProblem& compact,
                          const std::vector<std::int32_t>& bid_of_job, double bound,
                          const Budget& budget) {
  SolveResult result;
  result.solution.bid_of_job = bid_of_job;
  result.solution.objective = objective_of(compact, bid_of_job);
  result.effort = budget.spent();
  result.seconds = budget.elapsed_s();
  settle(problem, bound, result);
  return result;
}

void settle(const WindowProblem& problem, double bound, SolveResult& result) {
  result.bound = std::max(bound, result.solution.objective);
  result.gap = (result.bound - result.solution.objective) / std::max(1.0, std::fabs(result.bound));
  if (auto violation = check_solution(problem, result.solution)) {
    result.call = CallStatus::Error;
    result.status = SolveStatus::Error;
    result.message = "self-check failed: " + *violation;
    return;
  }
  const bool proven = result.bound - result.solution.objective <= optimality_tolerance(result.bound);
  result.status = proven ? SolveStatus::Optimal : SolveStatus::Feasible;
}

SolveResult defect_result(const std::string& defect) {
  SolveResult result;
  result.call = CallStatus::Error;
  result.status = SolveStatus::Error;
  result.message = "malformed window problem: " + defect;
  return result;
}

double best_bid_bound(const CompactProblem& problem) {
  double total = 0.0;
  for (std::int32_t job = 0; job < problem.jobs; ++job) {
    double best = 0.0;
    for (std::int32_t k = problem.job_bid_begin[job]; k < problem.job_bid_begin[job + 1]; ++k) {
      const std::int32_t bid = problem.job_bids[k];
      if (problem.usable[bid]) best = std::max(best, problem.value[bid]);
    }
    total += best;
  }
  return total;
}

}  // namespace hs::solver
