// ClpRelaxation (CBC builds only): a basis taken from an optimal solve and set again later
// restarts the dual simplex at that optimum, rows added in between or not.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "solver/compact_problem.hpp"
#include "solver/window_lp.hpp"
#include "window_builders.hpp"
#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/clp_relaxation.hpp"
#endif

namespace hs::solver {
namespace {

#ifdef HETSCHED_HAVE_CBC

MipModel crowded_model() {
  return window_lp(compact_used_nodes(testing::bench_window(128, 50, 5, 3))).model;
}

// Solves the LP and keeps its optimal basis; `away_and_back` moves the LP away from that
// optimum (every column it uses excluded, re-solved) and back (bounds restored, the basis
// set), after `between` has run.
class RestoredBasis {
 public:
  explicit RestoredBasis(const MipModel& model) : lp_(model) {}

  void solve_and_keep() {
    ASSERT_EQ(lp_.solve(100000), ClpRelaxation::Outcome::Optimal);
    optimum_ = lp_.objective();
    basis_ = lp_.basis();
    ASSERT_EQ(basis_.size(), static_cast<std::size_t>(lp_.columns() + lp_.rows()));
  }

  void away_and_back(const std::function<void(ClpRelaxation&)>& between) {
    std::vector<double> upper;
    for (std::int32_t c = 0; c < lp_.columns(); ++c) upper.push_back(lp_.upper(c));
    between(lp_);
    for (std::int32_t c = 0; c < lp_.columns(); ++c)
      if (lp_.value(c) > 1e-6) lp_.set_upper(c, 0.0);
    ASSERT_EQ(lp_.solve(100000), ClpRelaxation::Outcome::Optimal);
    ASSERT_GT(lp_.last_iterations(), 0);
    for (std::int32_t c = 0; c < lp_.columns(); ++c) lp_.set_upper(c, upper[c]);
    lp_.set_basis(basis_);
  }

  // The re-solve from the kept basis: no pivot, the same optimum.
  void expect_no_pivots() {
    ASSERT_EQ(lp_.solve(100000), ClpRelaxation::Outcome::Optimal);
    EXPECT_EQ(lp_.last_iterations(), 0);
    EXPECT_NEAR(lp_.objective(), optimum_, 1e-6 * optimum_);
  }

 private:
  ClpRelaxation lp_;
  double optimum_ = 0.0;
  std::vector<unsigned char> basis_;
};

TEST(ClpRelaxation, ARestoredBasisNeedsNoPivots) {
  RestoredBasis lp(crowded_model());
  lp.solve_and_keep();
  lp.away_and_back([](ClpRelaxation&) {});
  lp.expect_no_pivots();
}

// A basis taken before rows were added: the new rows start with their slacks basic, which
// keeps the old optimum when the rows do not cut it off.
TEST(ClpRelaxation, ABasisFromBeforeAddedRowsStillFits) {
  const MipModel model = crowded_model();
  RestoredBasis lp(model);
  lp.solve_and_keep();
  MipRow loose = model.rows.front();
  loose.upper = loose.upper * 2.0 + 1.0;  // never binding
  lp.away_and_back([&loose](ClpRelaxation& relaxation) { relaxation.add_rows({loose}); });
  lp.expect_no_pivots();
}

// Costs of 2^32 and more per bid (windows whose values count started jobs first) are solved
// in a scaled objective: the value, the column values and the reduced costs come back in the
// model's units, and agree with the same model's at ordinary costs.
TEST(ClpRelaxation, LargeCostsComeBackInTheModelsUnits) {
  const MipModel model = crowded_model();
  MipModel large = model;
  const double factor = std::ldexp(1.0, 32);
  for (MipColumn& column : large.columns) column.objective *= factor;
  ClpRelaxation plain(model), scaled(large);
  ASSERT_EQ(plain.solve(100000), ClpRelaxation::Outcome::Optimal);
  ASSERT_EQ(scaled.solve(100000), ClpRelaxation::Outcome::Optimal);
  EXPECT_NEAR(scaled.objective(), plain.objective() * factor, 1e-9 * plain.objective() * factor);
  for (std::int32_t c = 0; c < plain.columns(); ++c) {
    EXPECT_NEAR(scaled.value(c), plain.value(c), 1e-6) << "column " << c;
    EXPECT_NEAR(scaled.reduced_cost(c), plain.reduced_cost(c) * factor, 1e-6 * factor) << "column " << c;
  }
}

#else

TEST(ClpRelaxation, NeedsCbc) { GTEST_SKIP() << "built without CBC"; }

#endif

}  // namespace
}  // namespace hs::solver
