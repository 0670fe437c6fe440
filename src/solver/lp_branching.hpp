#pragma once
// Where a node of the LP tree (lp_branch_and_bound.cpp) branches, read from the node's LP
// solution: a job the LP starts only in part, or a fractional bid.
#include <cstdint>
#include <vector>

#include "solver/compact_problem.hpp"

namespace hs::solver {

class ClpRelaxation;

// A column value this close to 0 or 1 counts as integral.
constexpr double kIntegral = 1e-6;

// What a node branches on: a job (started, or all its bids excluded) or a bid (chosen, or
// excluded); neither when the LP solution is integral.
struct Branch {
  std::int32_t job = -1;
  std::int32_t column = -1;
};

// The job that the LP most nearly starts, if it starts one only in part; but when the LP
// spreads that job's share over two or more of its bids, its leading bid. Starting such a
// job leaves the LP free to spread it again over its other bids, and on windows captured
// from replays (jobs of several bids over runs of equal nodes) the tree then ran 650 nodes
// without a proof where CBC, branching on bids, needs 4; choosing the leading bid decides
// where the job runs. Otherwise the fractional bid closest to 1. `job_row`: per job, its
// row in the LP (-1: none).
Branch choose_branch(const CompactProblem& p, const std::vector<std::int32_t>& job_row,
                     const ClpRelaxation& lp);

// The fractional bid closest to 1 (ties: the more valuable, then the lower index); -1
// when the LP solution is integral.
std::int32_t branching_column(const CompactProblem& p, const ClpRelaxation& lp);

}  // namespace hs::solver
