// The default solver against the exact optimum on many tiny random windows, plus the
// properties every answer must have: feasible, deterministic, never above the bound.
#include <gtest/gtest.h>

#include <cstdio>

#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

TEST(LagrangianQuality, MatchesExhaustiveOptimumOnTinyInstances) {
  constexpr int kInstances = 1000;
  auto lagrangian = make_window_solver("lagrangian");
  auto exhaustive = make_window_solver("exhaustive");
  int matches = 0, claimed_optimal = 0;
  for (int i = 0; i < kInstances; ++i) {
    const WindowProblem p = make_random_window(testing::tiny_random_spec(1000 + i, 7));
    const SolveResult exact = exhaustive->solve(p, {});
    const SolveResult heuristic = lagrangian->solve(p, {});
    ASSERT_EQ(exact.status, SolveStatus::Optimal) << "instance " << i;
    ASSERT_EQ(heuristic.call, CallStatus::Ok) << heuristic.message;
    ASSERT_FALSE(check_solution(p, heuristic.solution));
    const double optimum = exact.solution.objective;
    ASSERT_LE(heuristic.solution.objective, optimum + 1e-6) << "instance " << i;
    ASSERT_GE(heuristic.bound, optimum - 1e-6) << "bound below the optimum, instance " << i;
    const bool match = heuristic.solution.objective >= optimum - 1e-6;
    matches += match;
    if (heuristic.status == SolveStatus::Optimal) {
      ++claimed_optimal;
      EXPECT_TRUE(match) << "claimed optimal but is not, instance " << i;
    }
  }
  std::printf("lagrangian matched the exhaustive optimum on %d of %d tiny instances "
              "(proved optimal on %d)\n", matches, kInstances, claimed_optimal);
  EXPECT_GE(matches, kInstances * 98 / 100);
}

TEST(LagrangianQuality, NeverExceedsACapacityOnRealisticWindows) {
  for (const std::string& name : {std::string("lagrangian"), std::string("greedy")}) {
    auto solver = make_window_solver(name);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      RandomWindowSpec spec;
      spec.seed = seed;
      spec.nodes = 64 + 32 * static_cast<std::int32_t>(seed % 4);
      spec.jobs = 20 + static_cast<std::int32_t>(seed % 3) * 40;
      spec.max_bids_per_job = seed % 2 ? 15 : 5;
      const WindowProblem p = make_random_window(spec);
      const SolveResult r = solver->solve(p, {});
      ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
      // Recompute loads here rather than trusting check_solution alone.
      std::vector<std::int64_t> load(p.capacity.size(), 0);
      for (std::int32_t bid : r.solution.bid_of_job) {
        if (bid < 0) continue;
        for (const NodeUse& use : p.bids[bid].uses)
          for (std::int32_t d = 0; d < p.dims; ++d) load[use.node * p.dims + d] += use.amount[d];
      }
      for (std::size_t e = 0; e < load.size(); ++e)
        ASSERT_LE(load[e], p.capacity[e]) << name << " seed " << seed << " entry " << e;
      EXPECT_LE(r.solution.objective, r.bound + 1e-9);
      EXPECT_GE(r.gap, 0.0);
    }
  }
}

TEST(LagrangianQuality, SameInstanceSameAnswer) {
  RandomWindowSpec spec;
  spec.nodes = 512;
  spec.jobs = 100;
  spec.seed = 99;
  const WindowProblem p = make_random_window(spec);
  const SolveResult first = make_window_solver("lagrangian")->solve(p, {});
  const SolveResult second = make_window_solver("lagrangian")->solve(p, {});
  EXPECT_EQ(first.solution.bid_of_job, second.solution.bid_of_job);
  EXPECT_EQ(first.solution.objective, second.solution.objective);
  EXPECT_EQ(first.bound, second.bound);
  EXPECT_EQ(first.effort, second.effort);
}

TEST(LagrangianQuality, EffortLimitIsRespectedAndStillFeasible) {
  RandomWindowSpec spec;
  spec.nodes = 512;
  spec.jobs = 100;
  spec.seed = 5;
  const WindowProblem p = make_random_window(spec);
  SolverOptions options;
  options.effort_limit = 200'000;
  const SolveResult limited = make_window_solver("lagrangian")->solve(p, options);
  const SolveResult full = make_window_solver("lagrangian")->solve(p, {});
  ASSERT_EQ(limited.call, CallStatus::Ok);
  EXPECT_FALSE(check_solution(p, limited.solution));
  EXPECT_LT(limited.effort, full.effort);
  EXPECT_LE(limited.solution.objective, full.bound + 1e-9);
}

TEST(LagrangianQuality, WallClockCapAndSeedsStillGiveFeasibleAnswers) {
  RandomWindowSpec spec;
  spec.nodes = 1024;
  spec.jobs = 200;
  spec.seed = 8;
  const WindowProblem p = make_random_window(spec);
  SolverOptions capped;
  capped.time_limit_s = 1e-6;
  const SolveResult quick = make_window_solver("lagrangian")->solve(p, capped);
  ASSERT_EQ(quick.call, CallStatus::Ok);
  EXPECT_FALSE(check_solution(p, quick.solution));
  EXPECT_LT(quick.effort, 2'000'000);
  for (std::uint64_t seed : {2u, 3u}) {
    SolverOptions options;
    options.seed = seed;
    options.effort_limit = 3'000'000;
    const SolveResult r = make_window_solver("lagrangian")->solve(p, options);
    ASSERT_EQ(r.call, CallStatus::Ok);
    EXPECT_FALSE(check_solution(p, r.solution));
    EXPECT_LE(r.solution.objective, r.bound);
  }
}

TEST(LagrangianQuality, BeatsOrMatchesPlainGreedy) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const WindowProblem p = testing::random_window(256, 80, seed);
    const SolveResult greedy = make_window_solver("greedy")->solve(p, {});
    const SolveResult lagrangian = make_window_solver("lagrangian")->solve(p, {});
    EXPECT_GE(lagrangian.solution.objective, greedy.solution.objective - 1e-9) << seed;
  }
}

}  // namespace
}  // namespace hs::solver
