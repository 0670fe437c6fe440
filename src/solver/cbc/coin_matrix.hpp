#pragma once
// A MipModel in COIN-OR's terms, shared by the CLP relaxation and CGL's root cuts (CBC
// builds only): infinite bounds as COIN's ±DBL_MAX, and the rows as one row-ordered matrix.
#include <CoinPackedMatrix.hpp>

#include "solver/mip_model.hpp"

namespace hs::solver {

// kMipInfinity as COIN's DBL_MAX (and back), other values as they are.
double to_coin_bound(double v);
double from_coin_bound(double v);

// The model's rows as one row-ordered matrix, built in one go (appending row by row
// re-allocates and took 170 ms on a 1,400-node window).
CoinPackedMatrix row_matrix(const MipModel& model);

}  // namespace hs::solver
