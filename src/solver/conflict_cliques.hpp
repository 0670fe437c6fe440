#pragma once
// Cliques of a window's conflict graph. Two usable bids conflict when they belong to one job
// or when together they take more than a capacity row allows. Over any set of pairwise
// conflicting bids at most one is chosen (Σ x ≤ 1), which holds for the integer problem but
// not for its LP relaxation; a clique whose bids lie on different nodes follows from no
// single row of the LP, and on windows with room (a few bids per node) such rows close most
// of the LP's gap (docs/solver.md, "Conflict cliques").
#include <cstdint>
#include <vector>

#include "solver/compact_problem.hpp"
#include "solver/mip_model.hpp"

namespace hs::solver {

// A capacity row of the LP: its bids (columns) with their amounts, and the capacity.
struct CapacityRowView {
  const MipRow* row = nullptr;
  std::int64_t capacity = 0;
};

struct ConflictCliques {
  std::vector<std::vector<std::int32_t>> cliques;  // each sorted, of >= 3 bids of >= 2 jobs
  std::int64_t work = 0;  // adjacency entries and candidates touched (<= the work limit)
};

// One greedy maximal clique per bid not yet in a clique kept, from the most valuable bid
// down (so a dense graph, where a few cliques cover every bid, costs little): the clique
// grows by the candidate that conflicts with most of the other candidates (ties: the higher
// value, then the lower index). Kept when it has at least 3 bids of at least 2 jobs (a job's
// own bids already have their row) and was not found before. Stops, keeping what it has,
// before `work_limit` is passed; deterministic.
ConflictCliques conflict_cliques(const CompactProblem& problem,
                                 const std::vector<CapacityRowView>& capacity_rows,
                                 std::int64_t work_limit);

}  // namespace hs::solver
