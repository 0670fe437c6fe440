#pragma once
// Pseudocosts of binary columns for branch and bound: how much the LP's value fell, per unit
// of the column's fractional value taken away, when the column was set to 0 (down) or 1 (up).
// The mean of what was seen estimates the next loss; a column not yet seen one way borrows
// the mean over every column seen that way (1 before any), so it ranks among the others.
#include <cstdint>
#include <vector>

namespace hs::solver {

class Pseudocosts {
 public:
  explicit Pseudocosts(std::int32_t columns) : down_(columns), up_(columns) {}

  // The LP's value fell by `loss` when the column, at `x` in the parent, was set to 0 (down)
  // or 1 (up). Negative losses (a re-solve's noise) count as 0.
  void record(std::int32_t column, bool up, double loss, double x);

  // The expected fall of the LP's value when the column, at `x`, is set that way.
  double estimate(std::int32_t column, bool up, double x) const;

  // Seen at least `times` both ways.
  bool reliable(std::int32_t column, std::int32_t times) const {
    return down_[column].count >= times && up_[column].count >= times;
  }

 private:
  struct Mean {
    double sum = 0.0;
    std::int32_t count = 0;
  };
  std::vector<Mean> down_, up_;
  Mean all_down_, all_up_;
};

}  // namespace hs::solver
