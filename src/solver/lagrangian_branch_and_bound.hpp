#pragma once
// Exact depth-first search over jobs that prunes with the Lagrangian bound at fixed
// multipliers lambda: for any completion of a partial choice,
//   value <= sum_e lambda_e C_e + sum_{chosen b} r_b + sum_{open jobs} max(0, max_b r_b),
// where r_b = v_b - sum_e a_be lambda_e (feasible use never exceeds C). With the
// multipliers of the best dual bound this closes the small remaining gap of a good
// incumbent quickly on small and medium windows; on large ones it stops at its budget.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"

namespace hs::solver {

// Improves `best` in place. True when the search completed, i.e. `best` is optimal.
bool lagrangian_branch_and_bound(const CompactProblem& problem, const std::vector<double>& lambda,
                                 Budget& budget, std::int64_t effort_cap, Incumbent& best);

}  // namespace hs::solver
