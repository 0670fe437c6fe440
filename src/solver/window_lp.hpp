#pragma once
// The window problem's LP relaxation as a MipModel over a CompactProblem: one column per bid
// (upper bound 0 when the bid cannot fit the empty cluster), "at most one" rows for jobs with
// two or more usable bids, capacity rows only where the usable bids could exceed the
// capacity, and optionally clique rows.
#include <cstdint>
#include <vector>

#include "solver/compact_problem.hpp"
#include "solver/mip_model.hpp"

namespace hs::solver {

struct WindowLpOptions {
  // Per node and dimension, the bids that each take more than half of the capacity exclude
  // one another: Σ x ≤ 1 over them (valid for the integer problem, cuts the LP).
  bool clique_rows = true;
  // Leaves out the capacity rows (and their clique rows) implied by the same dimension's row
  // of a neighbouring node: on the neighbour every bid of the row takes at least as much and
  // the capacity is no larger. The LP's value does not change; it gets much smaller on
  // windows whose bids span long runs of equal nodes.
  bool drop_dominated_rows = false;
};

struct WindowLp {
  MipModel model;
  std::vector<std::int32_t> job_row;  // per job: its "at most one" row, or -1 (< 2 usable bids)
  std::vector<std::int32_t> capacity_rows;  // the model's capacity rows (upper = capacity)
};

WindowLp window_lp(const CompactProblem& problem, const WindowLpOptions& options = {});

// Rows Σ x ≤ 1 over the cliques of the window's conflict graph (conflict_cliques.hpp) read
// from `lp`'s job and capacity rows, found within `work_limit`; `work` gets the work done.
std::vector<MipRow> conflict_clique_rows(const CompactProblem& problem, const WindowLp& lp,
                                         std::int64_t work_limit, std::int64_t& work);

// True when this build has COIN-OR CLP (CBC builds), which solves this LP for
// lp_branch_and_bound and window_lp_bound; without it both return a bound of +infinity.
bool clp_available();

}  // namespace hs::solver
