#pragma once
// Greedy ranking key: a bid's value over its priced resource use. The price of one unit of
// dimension d on node n is the Lagrange multiplier of that capacity row (if any) plus a
// small base price, mean bid value / total capacity of d, so that with no multipliers the
// key is value per share of the cluster (a bid that needs no GPUs ranks above an equally
// valuable one that does).
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/compact_problem.hpp"

namespace hs::solver {

// `lambda` is empty or has nodes * dims entries (price per unit of capacity row).
std::vector<double> density_keys(const CompactProblem& problem, const std::vector<double>& lambda,
                                 std::int64_t& effort);
// The same keys written into `key` (resized; reuses its storage).
void density_keys(const CompactProblem& problem, const std::vector<double>& lambda,
                  std::int64_t& effort, std::vector<double>& key);

// The order of a greedy start: bids by descending key without multipliers, or by index when
// the budget cannot afford the keys and their sort (charged to the budget).
std::vector<std::int32_t> density_order_within(const CompactProblem& problem, Budget& budget);

}  // namespace hs::solver
