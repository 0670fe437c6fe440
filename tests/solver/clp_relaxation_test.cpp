// ClpRelaxation (CBC builds only): a basis taken from an optimal solve and set again later
// restarts the dual simplex at that optimum, rows added in between or not.
#include <gtest/gtest.h>

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

// Moves the LP away from its optimum: every column the optimum uses is excluded, and the
// LP re-solved.
void exclude_the_solution(ClpRelaxation& lp) {
  for (std::int32_t c = 0; c < lp.columns(); ++c)
    if (lp.value(c) > 1e-6) lp.set_upper(c, 0.0);
  ASSERT_EQ(lp.solve(100000), ClpRelaxation::Outcome::Optimal);
  ASSERT_GT(lp.last_iterations(), 0);
}

TEST(ClpRelaxation, ARestoredBasisNeedsNoPivots) {
  const MipModel model = crowded_model();
  ClpRelaxation lp(model);
  ASSERT_EQ(lp.solve(100000), ClpRelaxation::Outcome::Optimal);
  const double optimum = lp.objective();
  const std::vector<unsigned char> basis = lp.basis();
  ASSERT_EQ(basis.size(), static_cast<std::size_t>(lp.columns() + lp.rows()));
  std::vector<double> upper;
  for (std::int32_t c = 0; c < lp.columns(); ++c) upper.push_back(lp.upper(c));

  exclude_the_solution(lp);
  for (std::int32_t c = 0; c < lp.columns(); ++c) lp.set_upper(c, upper[c]);
  lp.set_basis(basis);
  ASSERT_EQ(lp.solve(100000), ClpRelaxation::Outcome::Optimal);
  EXPECT_EQ(lp.last_iterations(), 0);
  EXPECT_NEAR(lp.objective(), optimum, 1e-6 * optimum);
}

// A basis taken before rows were added: the new rows start with their slacks basic, which
// keeps the old optimum when the rows do not cut it off.
TEST(ClpRelaxation, ABasisFromBeforeAddedRowsStillFits) {
  const MipModel model = crowded_model();
  ClpRelaxation lp(model);
  ASSERT_EQ(lp.solve(100000), ClpRelaxation::Outcome::Optimal);
  const double optimum = lp.objective();
  const std::vector<unsigned char> basis = lp.basis();
  std::vector<double> upper;
  for (std::int32_t c = 0; c < lp.columns(); ++c) upper.push_back(lp.upper(c));

  MipRow loose = model.rows.front();
  loose.upper = loose.upper * 2.0 + 1.0;  // never binding
  lp.add_rows({loose});
  exclude_the_solution(lp);
  for (std::int32_t c = 0; c < lp.columns(); ++c) lp.set_upper(c, upper[c]);
  lp.set_basis(basis);
  ASSERT_EQ(lp.solve(100000), ClpRelaxation::Outcome::Optimal);
  EXPECT_EQ(lp.last_iterations(), 0);
  EXPECT_NEAR(lp.objective(), optimum, 1e-6 * optimum);
}

#else

TEST(ClpRelaxation, NeedsCbc) { GTEST_SKIP() << "built without CBC"; }

#endif

}  // namespace
}  // namespace hs::solver
