#include "solver/cbc/coin_matrix.hpp"

#include <cfloat>
#include <vector>

namespace hs::solver {

double to_coin_bound(double v) {
  if (v == kMipInfinity) return DBL_MAX;
  if (v == -kMipInfinity) return -DBL_MAX;
  return v;
}

double from_coin_bound(double v) {
  if (v >= DBL_MAX) return kMipInfinity;
  if (v <= -DBL_MAX) return -kMipInfinity;
  return v;
}

CoinPackedMatrix row_matrix(const MipModel& model) {
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> lengths, columns;
  std::vector<double> elements;
  for (const MipRow& r : model.rows) {
    columns.insert(columns.end(), r.columns.begin(), r.columns.end());
    elements.insert(elements.end(), r.coefficients.begin(), r.coefficients.end());
    lengths.push_back(static_cast<int>(r.columns.size()));
    starts.push_back(static_cast<CoinBigIndex>(columns.size()));
  }
  return CoinPackedMatrix(false, static_cast<int>(model.columns.size()),
                          static_cast<int>(model.rows.size()),
                          static_cast<CoinBigIndex>(elements.size()), elements.data(),
                          columns.data(), starts.data(), lengths.data());
}

CoinArrays coin_arrays(const MipModel& model, double sign) {
  CoinArrays a;
  for (const MipRow& r : model.rows) {
    a.row_lb.push_back(to_coin_bound(r.lower));
    a.row_ub.push_back(to_coin_bound(r.upper));
  }
  for (const MipColumn& c : model.columns) {
    a.col_lb.push_back(to_coin_bound(c.lower));
    a.col_ub.push_back(to_coin_bound(c.upper));
    a.obj.push_back(sign * c.objective);
  }
  return a;
}

}  // namespace hs::solver
