// The LP bound (window_lp_bound.hpp) and SolverOptions::lp_bound: never below a proven
// optimum (exhaustive on tiny windows, CBC on small ones), also when the pivot cap stops the
// LP; never above the bound the default solver reports without it; the answer unchanged.
#include <gtest/gtest.h>

#include "solver/compact_problem.hpp"
#include "solver/mip_model.hpp"
#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "solver/window_lp_bound.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

class LpBoundTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  }
};

// A contended window of the benchmark family (12 cores, 3 GPUs per node, half the nodes
// partly busy), where the Lagrangian bound stays open.
WindowProblem contended_window(std::int32_t nodes, std::int32_t jobs, std::uint64_t seed) {
  return testing::bench_family_window(nodes, jobs, 15, seed);
}

SolverOptions with_lp_bound(bool on) {
  SolverOptions options;
  options.lp_bound = on;
  return options;
}

TEST_F(LpBoundTest, IsAtLeastTheExhaustiveOptimumOnTinyWindows) {
  auto exhaustive = make_window_solver("exhaustive");
  for (int i = 0; i < 600; ++i) {
    const WindowProblem problem = make_random_window(testing::tiny_random_spec(7000 + i, 13));
    const SolveResult optimum = exhaustive->solve(problem, {});
    ASSERT_EQ(optimum.status, SolveStatus::Optimal) << i;
    const CompactProblem p = compact_used_nodes(problem);
    for (std::int64_t pivots : {2LL, 50'000LL}) {  // stopped early, or solved
      LpBoundOptions options;
      options.max_iterations = pivots;
      const LpBound lp = window_lp_bound(p, options);
      EXPECT_GE(lp.bound, optimum.solution.objective) << i << " pivots " << pivots;
      if (lp.optimal) {
        EXPECT_LE(lp.bound, best_bid_bound(p) * (1 + 2 * kLpBoundMargin) + 1e-9) << i;
      }
    }
  }
}

TEST_F(LpBoundTest, IsAtLeastCbcsProvenOptimumOnSmallWindows) {
  if (!cbc_available()) GTEST_SKIP() << "built without CBC";
  auto cbc = make_window_solver("cbc");
  auto lagrangian = make_window_solver("lagrangian");
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    RandomWindowSpec spec;
    spec.seed = seed;
    spec.nodes = 32;
    spec.jobs = 12 + static_cast<std::int32_t>((seed * 7) % 19);
    spec.max_bids_per_job = 5 + static_cast<std::int32_t>(seed % 3) * 5;
    spec.max_nodes_per_job = 8;
    const WindowProblem problem = make_random_window(spec);
    const SolveResult reference = cbc->solve(problem, SolverOptions{0, 20.0, 1});
    if (reference.status != SolveStatus::Optimal) continue;
    ++compared;
    const LpBound lp = window_lp_bound(compact_used_nodes(problem));
    EXPECT_TRUE(lp.optimal) << seed;
    EXPECT_GE(lp.bound, reference.solution.objective) << seed;
    SolverOptions options = with_lp_bound(true);
    const SolveResult r = lagrangian->solve(problem, options);
    EXPECT_GE(r.bound, reference.solution.objective) << seed;
    options.lp_bound_iterations = 1;  // the LP stops at once: the refined Lagrangian bound
    const SolveResult refined = lagrangian->solve(problem, options);
    EXPECT_GE(refined.bound, reference.solution.objective) << seed;
  }
  EXPECT_GE(compared, 4);
}

// On contended windows the bound gets tighter (from the LP, or from the Lagrangian steps
// after the search), and the answer (bids, objective) is the one without it.
TEST_F(LpBoundTest, TightensOnlyTheBoundOnContendedWindows) {
  auto solver = make_window_solver("lagrangian");
  int from_lp = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const WindowProblem problem = contended_window(256, 100, seed);
    const SolveResult without = solver->solve(problem, with_lp_bound(false));
    const SolveResult with = solver->solve(problem, with_lp_bound(true));
    ASSERT_EQ(with.call, CallStatus::Ok) << with.message;
    EXPECT_EQ(with.solution.bid_of_job, without.solution.bid_of_job) << seed;
    EXPECT_EQ(with.solution.objective, without.solution.objective) << seed;
    EXPECT_GE(with.effort, without.effort) << seed;  // plus the LP's pivots
    EXPECT_LE(with.bound, without.bound) << seed;
    EXPECT_GE(with.bound, with.solution.objective) << seed;
    from_lp += with.bound_source == BoundSource::Lp;
    if (with.bound < without.bound) {
      EXPECT_TRUE(with.bound_source == BoundSource::Lp ||
                  with.bound_source == BoundSource::Lagrangian) << seed;
    } else {
      EXPECT_EQ(with.bound_source, without.bound_source) << seed;
    }
  }
  EXPECT_GE(from_lp, 1);
}

TEST_F(LpBoundTest, IsNotAboveTheLagrangianBound) {
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const WindowProblem problem = contended_window(256, 100, seed);
    const SolveResult lagrangian = make_window_solver("lagrangian")->solve(problem, {});
    if (lagrangian.bound_source != BoundSource::Lagrangian) continue;
    ++compared;
    const LpBound lp = window_lp_bound(compact_used_nodes(problem));
    ASSERT_TRUE(lp.optimal) << seed;
    EXPECT_LE(lp.bound, lagrangian.bound) << seed;
  }
  EXPECT_GE(compared, 2);
}

TEST_F(LpBoundTest, OffByDefault) {
  EXPECT_FALSE(SolverOptions{}.lp_bound);
  const WindowProblem problem = contended_window(256, 100, 1);
  const SolveResult r = make_window_solver("lagrangian")->solve(problem, {});
  EXPECT_NE(r.bound_source, BoundSource::Lp);
}

}  // namespace
}  // namespace hs::solver
