#pragma once
// Branch and bound over the window's LP relaxation (COIN-OR CLP, CBC builds only). The root
// ends the search when its plain LP cannot beat the incumbent; otherwise it adds a job count
// row (job_count_bounds.hpp) where the LP breaks it, then CGL's and its own cuts, lowering
// the row's cap as the cuts lower the LP's value. On a large LP (where the tree affords few
// nodes) a dive from the root and a tree over the sub-window of the bids its LPs used look
// for incumbents next. Each node re-solves the LP by the dual
// simplex from the last basis, adds cover cuts it violates, lowers the count cap for its
// subtree to what its own LP value allows, fixes bids by reduced cost, rounds the LP
// solution greedily for incumbents and branches by reliability branching: the fractional
// bids ranked by their pseudocosts (pseudocosts.hpp), those seen too few times tried both
// ways for a few pivots; a child that closes is cut off at once. RINS's dives branch on the
// job the LP most nearly starts, then on the most nearly chosen fractional bid.
// Best-first with dives: the open node with the highest bound is taken and the search dives
// from it into the child that starts the job (or chooses the bid), leaving the other open,
// so a stopped search's bound is the highest still open. See docs/solver.md.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/compact_problem.hpp"
#include "solver/window_lp.hpp"

namespace hs::solver {

struct LpSearchResult {
  bool complete = false;  // the tree closed: the best is optimal
  double bound = 0.0;     // proven upper bound (the best's objective when complete)
  double root_bound = 0.0;  // the root LP's value after the root cuts (+infinity: never solved)
  std::int64_t nodes = 0;
};

// Effort: per simplex pivot the LP's rows + columns, per node its columns, plus the ledger
// work of the rounding; a pivot limit keeps every LP solve inside the budget, and a cut
// round, a sort and each insertion of the rounding start only when affordable, so the
// budget's limit is a hard cap. `best` (bid per job) must be feasible; it is only replaced
// by better choices. The steps before the tree (cuts, dive, RINS) take shares of
// `phase_base` units, whatever the limit: what a larger limit adds goes to the tree, so the
// best found is never worse than at a smaller limit of at least `phase_base`. Without the
// CBC backend returns incomplete with bound = +infinity.
LpSearchResult lp_branch_and_bound(const CompactProblem& problem, const WindowLpOptions& options,
                                   Budget& budget, std::int64_t phase_base, std::vector<std::int32_t>& best);

}  // namespace hs::solver
