#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "solver/cover_cuts.hpp"
#include "util/rng.hpp"

namespace hs::solver {
namespace {

MipRow knapsack_row(std::vector<double> coefficients, double capacity) {
  MipRow row;
  for (std::size_t k = 0; k < coefficients.size(); ++k) row.columns.push_back(static_cast<std::int32_t>(k));
  row.coefficients = std::move(coefficients);
  row.upper = capacity;
  return row;
}

double activity(const MipRow& row, const std::vector<double>& x) {
  double sum = 0.0;
  for (std::size_t k = 0; k < row.columns.size(); ++k) sum += row.coefficients[k] * x[row.columns[k]];
  return sum;
}

TEST(CoverCuts, AViolatedCoverIsCutAndExtended) {
  // 3 + 3 > 5: x0 + x1 ≤ 1, extended by x2 (as large): x0 + x1 + x2 ≤ 1.
  const std::vector<double> x{0.8, 0.8, 0.1};
  const std::vector<MipRow> cuts = separate_covers({knapsack_row({3, 3, 3}, 5)}, x);
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_EQ(cuts[0].columns, (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(cuts[0].upper, 1.0);
}

// Covers of 2 x0 + 2 x1 + 2 x2 ≤ 5 take all three columns (x0 + x1 + x2 ≤ 2); at
// x = 0.7 each the row's Σ x (2.1) passes ⌊5 / 2⌋ = 2 by just enough for the cut to be
// violated, and it is found; at 0.66 each it is not violated, and nothing is cut.
TEST(CoverCuts, TheQuickTestKeepsACutThatIsJustViolated) {
  const MipRow row = knapsack_row({2, 2, 2}, 5);
  const std::vector<MipRow> cuts = separate_covers({row}, {0.7, 0.7, 0.7});
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_DOUBLE_EQ(cuts[0].upper, 2.0);
  EXPECT_TRUE(separate_covers({row}, {0.66, 0.66, 0.66}).empty());
}

// On random knapsack rows and fractional points: every cut is violated at the point and
// holds for every 0/1 choice the row allows (checked by enumeration).
TEST(CoverCuts, CutsOfRandomRowsAreViolatedAndValid) {
  Rng rng(7);
  int found = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 3 + static_cast<int>(rng.uniform_int(0, 7));
    std::vector<double> a(static_cast<std::size_t>(n));
    double total = 0.0;
    for (double& v : a) total += v = static_cast<double>(1 + rng.uniform_int(0, 9));
    const MipRow row = knapsack_row(a, std::floor(total * (0.2 + 0.6 * rng.uniform01())));
    std::vector<double> x(static_cast<std::size_t>(n));
    for (double& v : x) v = rng.bernoulli(0.3) ? 0.0 : rng.uniform01();
    for (const MipRow& cut : separate_covers({row}, x)) {
      ++found;
      EXPECT_GT(activity(cut, x), cut.upper + 1e-4);
      for (std::uint32_t choice = 0; choice < (1u << n); ++choice) {
        std::vector<double> y(static_cast<std::size_t>(n));
        for (int k = 0; k < n; ++k) y[k] = (choice >> k) & 1u;
        if (activity(row, y) > row.upper) continue;
        EXPECT_LE(activity(cut, y), cut.upper) << "trial " << trial;
      }
    }
  }
  EXPECT_GT(found, 40);
}

}  // namespace
}  // namespace hs::solver
