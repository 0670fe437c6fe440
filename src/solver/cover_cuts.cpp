#include "solver/cover_cuts.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hs::solver {

namespace {

constexpr double kViolation = 1e-4;

bool is_packing_row(const MipRow& row) {
  return row.upper == 1.0 &&
         std::all_of(row.coefficients.begin(), row.coefficients.end(), [](double a) { return a == 1.0; });
}

// False when no cover of `row` can give a cut violated at x: a cut's left side is at most
// the row's Σ x⁺, and every cover has more than capacity / (largest coefficient) members,
// so a cut's right side is at least ⌊capacity / largest⌋. On windows captured from replays
// most rows fail this test, and it spares them the sort below.
bool may_yield_violated_cut(const MipRow& row, const std::vector<double>& x) {
  double sum = 0.0, largest = 0.0;
  for (std::size_t k = 0; k < row.columns.size(); ++k) {
    sum += std::max(0.0, x[row.columns[k]]);
    largest = std::max(largest, row.coefficients[k]);
  }
  return largest > 0.0 && sum > std::floor(row.upper / largest) + kViolation;
}

// Positions in `row` of a greedy cover at x, or empty when the row cannot overflow.
std::vector<std::size_t> greedy_cover(const MipRow& row, const std::vector<double>& x) {
  std::vector<std::size_t> order(row.columns.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<double> key(row.columns.size());
  for (std::size_t k = 0; k < key.size(); ++k) key[k] = (1.0 - x[row.columns[k]]) / row.coefficients[k];
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return key[a] < key[b] || (key[a] == key[b] && a < b);
  });
  double load = 0.0;
  std::vector<std::size_t> cover;
  for (std::size_t k : order) {
    cover.push_back(k);
    load += row.coefficients[k];
    if (load > row.upper + 1e-9) return cover;
  }
  return {};
}

}  // namespace

std::vector<MipRow> separate_covers(const std::vector<MipRow>& rows, const std::vector<double>& x) {
  std::vector<MipRow> cuts;
  for (const MipRow& row : rows) {
    if (is_packing_row(row) || row.upper == kMipInfinity || !may_yield_violated_cut(row, x)) continue;
    const std::vector<std::size_t> cover = greedy_cover(row, x);
    if (cover.empty()) continue;
    double largest = 0.0;
    for (std::size_t k : cover) largest = std::max(largest, row.coefficients[k]);
    MipRow cut;
    double lhs = 0.0;
    std::vector<bool> in_cover(row.columns.size(), false);
    for (std::size_t k : cover) in_cover[k] = true;
    for (std::size_t k = 0; k < row.columns.size(); ++k) {
      if (!in_cover[k] && row.coefficients[k] < largest) continue;
      cut.columns.push_back(row.columns[k]);
      lhs += x[row.columns[k]];
    }
    cut.coefficients.assign(cut.columns.size(), 1.0);
    cut.upper = static_cast<double>(cover.size()) - 1.0;
    if (lhs > cut.upper + kViolation) cuts.push_back(std::move(cut));
  }
  return cuts;
}

}  // namespace hs::solver
