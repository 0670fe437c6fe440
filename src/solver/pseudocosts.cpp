#include "solver/pseudocosts.hpp"

#include <algorithm>

namespace hs::solver {

namespace {

constexpr double kSmallestChange = 1e-6;  // a column this close to the branch's value moves by nothing

double change(bool up, double x) { return up ? 1.0 - x : x; }

}  // namespace

void Pseudocosts::record(std::int32_t column, bool up, double loss, double x) {
  const double moved = change(up, x);
  if (moved < kSmallestChange) return;
  const double per_unit = std::max(0.0, loss) / moved;
  Mean& own = up ? up_[column] : down_[column];
  Mean& all = up ? all_up_ : all_down_;
  own.sum += per_unit;
  ++own.count;
  all.sum += per_unit;
  ++all.count;
}

double Pseudocosts::estimate(std::int32_t column, bool up, double x) const {
  const Mean& own = up ? up_[column] : down_[column];
  const Mean& all = up ? all_up_ : all_down_;
  const double per_unit = own.count > 0   ? own.sum / own.count
                          : all.count > 0 ? all.sum / all.count
                                          : 1.0;
  return per_unit * change(up, x);
}

}  // namespace hs::solver
