#pragma once
// An upper bound on a window's optimum from its LP relaxation (window_lp.hpp: job rows,
// capacity rows, clique rows) tightened by a few rounds of cover cuts and solved by CLP
// under a pivot cap (CBC builds only). The bound is not CLP's objective but the weak-duality
// value of its row duals y, clipped to y >= 0:
//     Σ_i y_i b_i + Σ_c u_c max(0, v_c − Σ_i y_i a_ic),
// an upper bound for every y >= 0, so it holds whatever CLP's tolerances and even when the
// pivot cap stops the solve (CLP's dual simplex keeps its duals feasible, so an early stop
// gives a weaker bound, not a wrong one); a relative margin covers the rounding of that sum.
// See docs/solver.md.
#include <cstdint>
#include <limits>

#include "solver/compact_problem.hpp"

namespace hs::solver {

// Defaults measured on the benchmark windows (docs/solver.md): cover cuts moved the bound by
// less than 0.1 % at twice the time, so none; the dual simplex's own bound keeps improving up
// to the pivot cap, which bounds the work on large dense windows.
struct LpBoundOptions {
  bool clique_rows = true;
  bool drop_dominated_rows = true;      // window_lp: same LP value, fewer rows
  int cut_rounds = 0;                   // rounds of cover cuts after the first solve
  std::int64_t max_iterations = 5'000;  // simplex pivots over all rounds: the work cap
};

struct LpBound {
  double bound = std::numeric_limits<double>::infinity();  // +infinity: none (no CLP)
  bool optimal = false;          // the last LP solve ended optimal (not at the pivot cap)
  std::int64_t iterations = 0;   // simplex pivots, all rounds
  std::int64_t effort = 0;       // pivots × (rows + columns); lp_branch_and_bound also
                                 // counts a 64th of the nonzeros per pivot
  int cut_rounds = 0;            // rounds that added cuts
};

// Relative safety margin added to the dual value (documented in docs/solver.md).
inline constexpr double kLpBoundMargin = 1e-7;

// Without CLP (clp_available(), window_lp.hpp) the bound is +infinity.
LpBound window_lp_bound(const CompactProblem& problem, const LpBoundOptions& options = {});

}  // namespace hs::solver
