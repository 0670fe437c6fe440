#pragma once
// A MipModel in COIN-OR's terms, shared by the CLP relaxation and CGL's root cuts (CBC
// builds only): infinite bounds as COIN's ±DBL_MAX, and the rows as one row-ordered matrix.
#include <CoinPackedMatrix.hpp>

#include <vector>

#include "solver/mip_model.hpp"

namespace hs::solver {

// kMipInfinity as COIN's DBL_MAX (and back), other values as they are.
double to_coin_bound(double v);
double from_coin_bound(double v);

// The model's rows as one row-ordered matrix, built in one go (appending row by row
// re-allocates and took 170 ms on a 1,400-node window).
CoinPackedMatrix row_matrix(const MipModel& model);

// The arrays a COIN loadProblem takes besides the matrix; the objective times `sign`.
struct CoinArrays {
  std::vector<double> col_lb, col_ub, obj, row_lb, row_ub;
};
CoinArrays coin_arrays(const MipModel& model, double sign);

}  // namespace hs::solver
