// Small windows enumerated (enumeration_search.hpp, SolverOptions::enumerate_bids): the
// enumeration finds the exhaustive optimum, only above the floor it is given, and stops at
// its cap; the Lagrangian solver with it proves tiny windows optimal, is never worse than
// without it, leaves windows above the bid count alone and keeps its effort limit.
#include <gtest/gtest.h>

#include <limits>

#include "solver/budget.hpp"
#include "solver/compact_problem.hpp"
#include "solver/enumeration_search.hpp"
#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

WindowProblem random_window(std::uint64_t seed, std::int32_t nodes, std::int32_t jobs,
                            std::int32_t max_bids_per_job) {
  RandomWindowSpec spec;
  spec.seed = seed;
  spec.nodes = nodes;
  spec.jobs = jobs;
  spec.max_bids_per_job = max_bids_per_job;
  return make_random_window(spec);
}

SolverOptions enumerating(std::int32_t bids) {
  SolverOptions options;
  options.enumerate_bids = bids;
  return options;
}

TEST(Enumeration, FindsTheExhaustiveOptimumOnTinyWindows) {
  auto exhaustive = make_window_solver("exhaustive");
  for (int i = 0; i < 400; ++i) {
    const WindowProblem problem = make_random_window(testing::tiny_random_spec(9100 + i, 9));
    const SolveResult optimum = exhaustive->solve(problem, {});
    ASSERT_EQ(optimum.status, SolveStatus::Optimal) << i;
    const CompactProblem p = compact(problem);
    Budget budget(std::numeric_limits<std::int64_t>::max() / 4, 0.0);
    const EnumerationResult found = enumerate_choices(p, budget, budget.limit(), -1.0, 1e-12);
    ASSERT_TRUE(found.complete) << i;
    ASSERT_TRUE(found.improved) << i;
    EXPECT_NEAR(found.objective, optimum.solution.objective, 1e-9) << i;
    EXPECT_NEAR(objective_of(p, found.bid_of_job), optimum.solution.objective, 1e-9) << i;
  }
}

TEST(Enumeration, ReportsNothingAtOrBelowItsFloor) {
  const WindowProblem problem = make_random_window(testing::tiny_random_spec(9001, 9));
  const SolveResult optimum = make_window_solver("exhaustive")->solve(problem, {});
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000'000, 0.0);
  const EnumerationResult at_optimum =
      enumerate_choices(p, budget, budget.limit(), optimum.solution.objective, 1e-9);
  EXPECT_TRUE(at_optimum.complete);
  EXPECT_FALSE(at_optimum.improved);
  const EnumerationResult below =
      enumerate_choices(p, budget, budget.limit(), optimum.solution.objective - 1.0, 1e-9);
  EXPECT_TRUE(below.improved);
  EXPECT_NEAR(below.objective, optimum.solution.objective, 1e-9);
}

TEST(Enumeration, StopsIncompleteAtItsCap) {
  const CompactProblem p = compact(random_window(5, 32, 30, 8));
  Budget budget(1'000'000'000, 0.0);
  const EnumerationResult found = enumerate_choices(p, budget, 2'000, -1.0, 1e-12);
  EXPECT_FALSE(found.complete);
  EXPECT_LE(budget.spent(), 2'000);
}

TEST(Enumeration, LagrangianProvesTinyWindowsOptimalAndIsNeverWorse) {
  auto lagrangian = make_window_solver("lagrangian");
  auto exhaustive = make_window_solver("exhaustive");
  int proven = 0;
  for (int i = 0; i < 300; ++i) {
    const WindowProblem problem = make_random_window(testing::tiny_random_spec(9500 + i, 11));
    const SolveResult optimum = exhaustive->solve(problem, {});
    const SolveResult plain = lagrangian->solve(problem, {});
    const SolveResult with = lagrangian->solve(problem, enumerating(64));
    ASSERT_EQ(with.call, CallStatus::Ok) << i;
    EXPECT_LE(with.solution.objective, optimum.solution.objective + 1e-6) << i;
    EXPECT_GE(with.solution.objective, plain.solution.objective - 1e-6) << i;
    if (with.status != SolveStatus::Optimal) continue;
    ++proven;
    EXPECT_NEAR(with.solution.objective, optimum.solution.objective, 1e-6) << i;
  }
  EXPECT_GE(proven, 285);  // windows of up to 13 jobs: the cap stops only a few
}

TEST(Enumeration, LeavesWindowsAboveTheBidCountAlone) {
  const WindowProblem problem = random_window(11, 64, 40, 6);
  ASSERT_GT(problem.bids.size(), 16u);
  auto lagrangian = make_window_solver("lagrangian");
  const SolveResult plain = lagrangian->solve(problem, {});
  const SolveResult with = lagrangian->solve(problem, enumerating(16));
  EXPECT_EQ(with.solution.bid_of_job, plain.solution.bid_of_job);
  EXPECT_EQ(with.effort, plain.effort);
}

// A window the enumeration proves is done within the limit, however small (the kicks of
// the Lagrangian search, which run only while the gap is open, may pass a tiny limit by one
// kick: docs/solver.md).
TEST(Enumeration, KeepsTheEffortLimit) {
  int proven = 0;
  for (std::int64_t limit : {1'000LL, 20'000LL, 200'000LL}) {
    for (int i = 0; i < 40; ++i) {
      const WindowProblem problem = make_random_window(testing::tiny_random_spec(9900 + i, 20));
      SolverOptions options = enumerating(64);
      options.effort_limit = limit;
      const SolveResult r = make_window_solver("lagrangian")->solve(problem, options);
      ASSERT_EQ(r.call, CallStatus::Ok);
      if (r.bound_source != BoundSource::Search) continue;
      ++proven;
      EXPECT_LE(r.effort, limit) << "limit " << limit << " window " << i;
    }
  }
  EXPECT_GT(proven, 40);
}

}  // namespace
}  // namespace hs::solver
