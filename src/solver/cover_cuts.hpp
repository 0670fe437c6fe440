#pragma once
// Cover inequalities for knapsack rows Σ a_i x_i ≤ b (a_i > 0, x binary): a set C with
// Σ_C a_i > b cannot be chosen whole, so Σ_{E(C)} x_i ≤ |C| − 1, where the extension E(C)
// adds every other column of the row with a coefficient at least max_C a_i.
#include <vector>

#include "solver/mip_model.hpp"

namespace hs::solver {

// Cuts violated by more than 1e-4 at `x`, one per row at most, found greedily: the cover
// takes the columns of smallest (1 − x_i) / a_i until it overflows the row. Rows whose
// coefficients are all 1 with an upper bound of 1 are skipped (their covers are pairs the
// row already states).
std::vector<MipRow> separate_covers(const std::vector<MipRow>& rows, const std::vector<double>& x);

}  // namespace hs::solver
