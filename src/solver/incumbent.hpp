#pragma once
// A feasible per-job bid choice kept together with the remaining capacity it leaves, plus
// the helpers every specialised solver shares: greedy insertion in a given bid order and
// turning a final choice into a checked SolveResult.
#include <cstdint>
#include <string>
#include <vector>

#include "solver/budget.hpp"
#include "solver/capacity_ledger.hpp"
#include "solver/compact_problem.hpp"
#include "solver/window_problem.hpp"

namespace hs::solver {

struct Incumbent {
  Incumbent(const CompactProblem& problem, std::int64_t& effort)
      : bid_of_job(problem.jobs, -1), ledger(problem, effort) {}
  std::vector<std::int32_t> bid_of_job;
  CapacityLedger ledger;
  double objective = 0.0;
  // Back to the empty choice, as if newly constructed (and, like construction, uncharged),
  // without reallocating: gives back only what the chosen bids hold.
  void clear();
};

// The incumbent of a feasible choice `bid_of_job`; each take is charged to `effort` unless
// `prepaid` (its caller's search charged it already).
Incumbent incumbent_of(const CompactProblem& problem, const std::vector<std::int32_t>& bid_of_job,
                       std::int64_t& effort, bool prepaid = false);

// Takes, in the given order, every usable bid whose job has no bid yet and that fits.
void insert_in_order(const CompactProblem& problem, const std::vector<std::int32_t>& order,
                     Incumbent& incumbent);

// The same, but stops before the first fit test and take whose cost would pass the budget's
// limit (the result is still feasible, only shorter).
void insert_in_order_within(const CompactProblem& problem, const std::vector<std::int32_t>& order,
                            Incumbent& incumbent, const Budget& budget);

// Effort charged for sorting n items (n log n).
std::int64_t sort_effort(std::size_t n);

// Bid indices sorted by descending key; ties by ascending index (deterministic).
std::vector<std::int32_t> order_by_descending(const std::vector<double>& key,
                                              std::int64_t& effort);

// order_by_descending into buffers kept from one call to the next (no allocation once they
// have grown); the order is the same, and so is the charge.
class DescendingOrder {
 public:
  const std::vector<std::int32_t>& of(const std::vector<double>& key, std::int64_t& effort);

 private:
  std::vector<std::pair<double, std::int32_t>> keyed_;
  std::vector<std::int32_t> order_;
};

// Absolute tolerance under which bound and objective count as equal (values are sums of
// doubles; documented in docs/solver.md).
double optimality_tolerance(double bound);

// Builds the result for `bid_of_job`, verifies it with check_solution and marks it Optimal
// when the bound meets the objective; a failed self-check yields call/status Error.
SolveResult finish_result(const WindowProblem& problem, const CompactProblem& compact,
                          const std::vector<std::int32_t>& bid_of_job, double bound,
                          const Budget& budget);

// Sets `result`'s bound (at least its objective), gap and status for its solution, which is
// verified with check_solution first: a failed check yields call/status Error.
void settle(const WindowProblem& problem, double bound, SolveResult& result);

// The result for a malformed problem.
SolveResult defect_result(const std::string& defect);

// Trivial upper bound: every job takes its most valuable usable bid.
double best_bid_bound(const CompactProblem& problem);

}  // namespace hs::solver
