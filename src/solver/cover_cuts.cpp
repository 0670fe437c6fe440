#include "solver/cover_cuts.hpp"

#include <algorithm>
#include <numeric>

namespace hs::solver {

namespace {

constexpr double kViolation = 1e-4;

bool is_packing_row(const MipRow& row) {
  return row.upper == 1.0 &&
         std::all_of(row.coefficients.begin(), row.coefficients.end(), [](double a) { return a == 1.0; });
}

// Positions in `row` of a greedy cover at x, or empty when the row cannot overflow.
std::vector<std::size_t> greedy_cover(const MipRow& row, const std::vector<double>& x) {
  std::vector<std::size_t> order(row.columns.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto key = [&](std::size_t k) { return (1.0 - x[row.columns[k]]) / row.coefficients[k]; };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return key(a) < key(b) || (key(a) == key(b) && a < b);
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
    if (is_packing_row(row) || row.upper == kMipInfinity) continue;
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
