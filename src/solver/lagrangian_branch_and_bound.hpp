#pragma once
// Exact depth-first search over a set of free jobs (all others keep their incumbent bids)
// that prunes with the Lagrangian bound at fixed multipliers lambda: for any completion,
//   value <= sum_e lambda_e C_e + sum_{chosen b} r_b + sum_{open free jobs} max(0, max_b r_b),
// where r_b = v_b - sum_e a_be lambda_e, because feasible use never exceeds C. With the
// multipliers of the best dual bound this closes the small remaining gap of a good
// incumbent quickly on small windows. (As the exact sub-solver of a large-neighbourhood
// search it proved too weak: the bound at fixed multipliers hardly tightens as the search
// goes deeper; see neighbourhood_packing.hpp for what is used instead.)
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"

namespace hs::solver {

struct PricedBids {
  std::vector<double> reduced;   // per bid: v_b - sum_e a_be lambda_e (-inf if unusable)
  double capacity_value = 0.0;   // sum_e lambda_e C_e
};

PricedBids price_bids(const CompactProblem& problem, const std::vector<double>& lambda,
                      std::int64_t& effort);

// Re-solves the choice of `free_jobs` exactly (in that order), keeping every other job's
// bid in `best`; improves `best` in place. True when the search completed (then `best` is
// optimal for that neighbourhood; for all jobs free, optimal outright). Stops when the
// budget has spent `effort_cap`.
bool lagrangian_branch_and_bound(const CompactProblem& problem, const PricedBids& priced,
                                 const std::vector<std::int32_t>& free_jobs, Budget& budget,
                                 std::int64_t effort_cap, Incumbent& best);

}  // namespace hs::solver
