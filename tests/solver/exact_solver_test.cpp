// The exact solver (LP branch and bound, CLP builds only) against the exhaustive optimum on
// tiny windows and CBC's proven optimum on small ones; its effort cap, the tree's and the
// whole solve's; never worse than the default solver.
#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <limits>

#include "solver/compact_problem.hpp"
#include "solver/lp_branch_and_bound.hpp"
#include "solver/mip_model.hpp"
#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "solver/specialised_solvers.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

class ExactSolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  }

  // `exact` at its default cap proves each of these bench windows (nodes x 50 jobs x bids).
  static void expect_proven(std::int32_t nodes, std::int32_t bids,
                            std::initializer_list<std::uint64_t> instances) {
    for (std::uint64_t instance : instances) {
      const WindowProblem p = testing::bench_window(nodes, 50, bids, instance);
      const SolveResult r = make_window_solver("exact")->solve(p, {});
      ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
      EXPECT_EQ(r.status, SolveStatus::Optimal) << "instance " << instance << ": bound "
                                                << r.bound << ", objective " << r.solution.objective;
    }
  }
};

TEST_F(ExactSolverTest, EqualsTheExhaustiveOptimumOnTinyWindows) {
  auto exact = make_window_solver("exact");
  auto exhaustive = make_window_solver("exhaustive");
  for (int i = 0; i < 600; ++i) {
    const WindowProblem p = make_random_window(testing::tiny_random_spec(5000 + i, 13));
    const SolveResult reference = exhaustive->solve(p, {});
    const SolveResult r = exact->solve(p, {});
    ASSERT_EQ(reference.status, SolveStatus::Optimal) << i;
    ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
    ASSERT_FALSE(check_solution(p, r.solution));
    EXPECT_EQ(r.status, SolveStatus::Optimal) << i;
    EXPECT_NEAR(r.solution.objective, reference.solution.objective, 1e-6) << i;
    EXPECT_NEAR(r.bound, r.solution.objective, 1e-6) << i;
  }
}

TEST_F(ExactSolverTest, EqualsCbcsProvenOptimumOnSmallWindows) {
  if (!cbc_available()) GTEST_SKIP() << "built without CBC";
  auto exact = make_window_solver("exact");
  auto cbc = make_window_solver("cbc");
  int compared = 0, proven = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    RandomWindowSpec spec;
    spec.seed = seed;
    spec.nodes = 32;
    spec.jobs = 12 + static_cast<std::int32_t>((seed * 7) % 19);  // 12..30
    spec.max_bids_per_job = 5 + static_cast<std::int32_t>(seed % 3) * 5;
    spec.max_nodes_per_job = 8;
    const WindowProblem p = make_random_window(spec);
    const SolveResult reference = cbc->solve(p, SolverOptions{0, 20.0, 1});
    const SolveResult r = exact->solve(p, {});
    ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
    ASSERT_FALSE(check_solution(p, r.solution));
    proven += r.status == SolveStatus::Optimal;
    if (reference.status != SolveStatus::Optimal) continue;
    ++compared;
    const double tolerance = 1e-6 + 1e-9 * reference.solution.objective;
    EXPECT_LE(r.solution.objective, reference.solution.objective + tolerance) << seed;
    EXPECT_GE(r.bound, reference.solution.objective - tolerance) << seed;
    if (r.status == SolveStatus::Optimal) {
      EXPECT_NEAR(r.solution.objective, reference.solution.objective, tolerance) << seed;
    }
  }
  std::printf("exact proved %d of 12 small windows optimal; CBC proved %d\n", proven, compared);
  EXPECT_GE(compared, 10);
  EXPECT_GE(proven, 9);  // 10 with CGL's root cuts, 8 without
}

TEST_F(ExactSolverTest, TreeEffortNeverPassesTheCap) {
  const WindowProblem problem = testing::crowded_window(50, 15, 7);
  const CompactProblem p = compact_used_nodes(problem);
  for (std::int64_t limit : {0LL, 1'000LL, 50'000LL, 400'000LL}) {
    Budget budget(limit, 0.0);
    std::vector<std::int32_t> best(p.jobs, -1);
    const LpSearchResult r = lp_branch_and_bound(p, WindowLpOptions{}, budget, budget.limit(), best);
    EXPECT_LE(budget.spent(), limit);
    EXPECT_FALSE(r.complete) << limit;
    const double objective = objective_of(p, best);
    EXPECT_GE(r.bound, objective);
    WindowSolution solution{best, objective};
    EXPECT_FALSE(check_solution(problem, solution));
  }
}

// A given limit caps the whole solve: seed, tree and second run (session 41; before, only
// the tree, with up to 12 M units of seed and 12 M of second run on top).
TEST_F(ExactSolverTest, TheLimitCapsTheWholeSolve) {
  auto exact = make_window_solver("exact");
  for (std::uint64_t seed : {7ULL, 11ULL}) {
    const WindowProblem p = testing::crowded_window(50, 15, seed);
    for (std::int64_t limit : {1LL, 1'000LL, 20'000LL, 2'000'000LL, 25'000'000LL}) {
      SolverOptions options;
      options.effort_limit = limit;
      const SolveResult r = exact->solve(p, options);
      ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
      EXPECT_FALSE(check_solution(p, r.solution)) << seed << " " << limit;
      EXPECT_LE(r.effort, limit) << seed;
      EXPECT_GE(r.bound, r.solution.objective) << seed << " " << limit;
    }
  }
}

// Without a limit, and at any limit that leaves the default solve's shares (seed, the tree's
// 20 M, the second run's 12 M), the answer is at least the default solver's.
TEST_F(ExactSolverTest, NeverWorseThanTheDefaultSolver) {
  auto exact = make_window_solver("exact");
  auto fallback = make_window_solver(kDefaultWindowSolver);
  const std::int64_t default_solve_needs = LagrangianSolver::kDefaultEffort +
                                           ExactSolver::kDefaultEffort +
                                           LagrangianSolver::kDefaultEffort;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const WindowProblem p = testing::crowded_window(50, 5 + 10 * static_cast<std::int32_t>(seed % 2), seed);
    for (std::int64_t limit : {default_solve_needs, std::int64_t{0}}) {
      SolverOptions options;
      options.effort_limit = limit;
      const SolveResult r = exact->solve(p, options);
      const SolveResult reference = fallback->solve(p, {});
      ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
      EXPECT_GE(r.solution.objective, reference.solution.objective - 1e-9) << seed << " " << limit;
      EXPECT_GE(r.bound, r.solution.objective);
    }
  }
}

// Windows 13 and 1012 of the bench's 256 x 50 x 5 shape: the root cut loop stopped when a
// round gained less than 10^-4 of the LP value, and the tree then ran to its cap (0.6 s)
// without a proof; run on to 10^-6, the cuts close both in a few dozen milliseconds.
TEST_F(ExactSolverTest, LongerRootCutLoopProvesCrowdedBenchWindows) {
  expect_proven(256, 5, {13, 1012});
}

// Window 19 of 128 x 50 x 5 stops at the cap unproven under strong branching on the three
// most fractional jobs (session 38); reliability branching on bids proves it within the
// default cap. (So did it window 9 of 128 x 50 x 15, which since the conflict cliques of
// session 41 stops at the cap 4 x 10^-6 below its optimum.)
TEST_F(ExactSolverTest, ReliabilityBranchingProvesCrowdedBenchWindows) {
  expect_proven(128, 5, {19});
}

// Windows 2015 of 128 x 50 x 5 and 2019 of 128 x 50 x 15 stop at the default cap unproven
// without the conflict cliques in the tree's LP; with them both are proven, in 15.7 M and
// 10.7 M units (session 43, CGL given the cliques too; in session 41 these were windows
// 1006 and 1018).
TEST_F(ExactSolverTest, ConflictCliquesProveCrowdedBenchWindows) {
  expect_proven(128, 5, {2015});
  expect_proven(128, 15, {2019});
}

// Window 1002 of 128 x 50 x 5 is not proven within the default cap. The depth-first tree
// kept the root's other branch open to the end, so it reported the root LP's bound; the
// best-first tree closes the nodes of highest bound first and reports a lower one.
TEST_F(ExactSolverTest, StoppedTreeReportsTheHighestBoundLeftOpen) {
  const WindowProblem problem = testing::bench_window(128, 50, 5, 1002);
  const CompactProblem p = compact_used_nodes(problem);
  Budget budget(ExactSolver::kDefaultEffort, 0.0);
  const SolveResult seed = make_window_solver(kDefaultWindowSolver)->solve(problem, {});
  std::vector<std::int32_t> best = seed.solution.bid_of_job;
  const LpSearchResult r = lp_branch_and_bound(p, WindowLpOptions{}, budget, budget.limit(), best);
  ASSERT_FALSE(r.complete);
  EXPECT_GE(r.bound, objective_of(p, best));
  EXPECT_LT(r.bound, r.root_bound * (1.0 - 1e-4)) << "root " << r.root_bound;
}

// Stopped at every tenth of the effort a proof takes, the tree's bound never falls below
// the optimum it proves when let run, and its effort never passes the cap.
TEST_F(ExactSolverTest, StoppedTreeBoundsNeverCutOffTheOptimum) {
  for (std::uint64_t instance : {13ULL, 1012ULL}) {
    const CompactProblem p = compact_used_nodes(testing::bench_window(256, 50, 5, instance));
    Budget full(ExactSolver::kDefaultEffort, 0.0);
    std::vector<std::int32_t> optimal(p.jobs, -1);
    ASSERT_TRUE(lp_branch_and_bound(p, WindowLpOptions{}, full, full.limit(), optimal).complete);
    const double optimum = objective_of(p, optimal);
    for (int tenth = 1; tenth < 10; ++tenth) {
      const std::int64_t cap = full.spent() * tenth / 10;
      Budget budget(cap, 0.0);
      std::vector<std::int32_t> best(p.jobs, -1);
      const LpSearchResult r = lp_branch_and_bound(p, WindowLpOptions{}, budget, budget.limit(), best);
      EXPECT_LE(budget.spent(), cap);
      EXPECT_GE(r.bound, optimum - optimality_tolerance(optimum)) << instance << " at " << tenth;
      EXPECT_LE(objective_of(p, best), optimum + optimality_tolerance(optimum));
    }
  }
}

// Windows 1 of 128 x 50 x 5 and 4 of 128 x 50 x 15 stop at the cap unproven when a node
// taken from the open list is solved from the basis the last dive ended at; from its
// parent's basis the tree closes both (of 180 crowded windows, 135 proven against 127).
TEST_F(ExactSolverTest, NodesFromTheOpenListStartFromTheirParentsBasis) {
  const struct { int bids; std::uint64_t instance; } windows[] = {{5, 1}, {15, 4}};
  for (const auto& w : windows) {
    const WindowProblem p = testing::bench_window(128, 50, w.bids, w.instance);
    const SolveResult r = make_window_solver("exact")->solve(p, {});
    ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
    EXPECT_EQ(r.status, SolveStatus::Optimal) << "instance " << w.instance << ": bound "
                                              << r.bound << ", objective " << r.solution.objective;
  }
}

// Window 5 of 128 x 50 x 5: with the tree's roundings taken as they are, the cap stops it
// 0.66 % below CBC's 5-s answer; polished by local search when close to the incumbent, a
// rounding becomes an incumbent within 10^-4 of it. (Window 1002 was pinned here too until
// session 36: with the smaller seed it ends 0.16 % below CBC with or without polishing.)
TEST_F(ExactSolverTest, PolishedRoundingsReachCbcsAnswerOnCrowdedWindows) {
  const struct { int bids; std::uint64_t instance; double cbc; } windows[] = {
      {5, 5, 50633.846177035426}};
  for (const auto& w : windows) {
    const WindowProblem p = testing::bench_window(128, 50, w.bids, w.instance);
    const SolveResult r = make_window_solver("exact")->solve(p, {});
    ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
    EXPECT_GE(r.solution.objective, w.cbc * (1.0 - 1e-4)) << "instance " << w.instance;
  }
}

// Window 1005 of the sparse 1408 x 200 x 15 family (`--busy 0.3`): without the dive
// from the root and the search of its sub-window, the tree reached 18 nodes of its large LP
// and ended on the default solver's answer, 2.1 % below CBC's in 5 s; the sub-window of the
// 250 bids the dive's LPs used holds CBC's answer (session 42).
TEST_F(ExactSolverTest, ADiveAndItsSubWindowReachCbcOnASparseWindow) {
  const WindowProblem p = testing::bench_window(1408, 200, 15, 1005, 0.3);
  const SolveResult r = make_window_solver("exact")->solve(p, {});
  ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
  constexpr double kCbc5s = 274642.93560047483;  // bench/cbc_cache/cbc5-busy03.txt
  EXPECT_GE(r.solution.objective, kCbc5s * (1.0 - 1e-5));
  EXPECT_LE(r.effort, ExactSolver::seed_effort(p) + ExactSolver::kDefaultEffort +
                          LagrangianSolver::kDefaultEffort);
}

// The dive and the sub-window's tree charge the same budget: on the same window, limits
// that stop the solve before, inside and after them are kept, and so is a wall-clock cap.
TEST_F(ExactSolverTest, TheDiveAndItsSubWindowKeepTheLimits) {
  const WindowProblem p = testing::bench_window(1408, 200, 15, 1005, 0.3);
  auto exact = make_window_solver("exact");
  for (std::int64_t limit : {14'000'000LL, 22'000'000LL, 27'000'000LL}) {
    SolverOptions options;
    options.effort_limit = limit;
    const SolveResult r = exact->solve(p, options);
    ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
    EXPECT_FALSE(check_solution(p, r.solution)) << limit;
    EXPECT_LE(r.effort, limit);
    EXPECT_GE(r.bound, r.solution.objective) << limit;
  }
  SolverOptions timed;
  timed.time_limit_s = 0.05;
  const SolveResult r = exact->solve(p, timed);
  ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
  EXPECT_FALSE(check_solution(p, r.solution));
  EXPECT_LT(r.seconds, 5.0) << "a 50 ms cap (a loaded or sanitized build may overrun it a little)";
}

// Window 1009 of the same family ended 0.37 % lower at a limit of 44 M units than at the
// default (32 M units in all), while the cuts, the dive and RINS took shares of the larger
// tree budget. With their shares fixed, a tree at any larger limit repeats the default's and
// goes on from there (session 43).
TEST_F(ExactSolverTest, ALargerLimitNeverEndsBelowTheDefault) {
  const WindowProblem p = testing::bench_window(1408, 200, 15, 1009, 0.3);
  auto exact = make_window_solver("exact");
  const SolveResult by_default = exact->solve(p, {});
  ASSERT_EQ(by_default.call, CallStatus::Ok) << by_default.message;
  SolverOptions more;
  more.effort_limit = 44'000'000;
  const SolveResult r = exact->solve(p, more);
  ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
  EXPECT_GE(r.solution.objective, by_default.solution.objective);
}

// The tree alone, on a crowded window: at limits from the phases' base on, each search
// repeats the one before and goes on, so its best never falls as the limit grows. With the
// phases' shares taken of the limit, this window's best fell from 56,784.16 at 6 M units to
// 56,784.13 at 10 M.
TEST_F(ExactSolverTest, TheTreesBestGrowsWithItsLimit) {
  const WindowProblem problem = testing::bench_window(128, 50, 15, 1001);
  const CompactProblem p = compact_used_nodes(problem);
  const SolveResult seed = make_window_solver(kDefaultWindowSolver)->solve(problem, {});
  constexpr std::int64_t kBase = 2'000'000;
  double last = 0.0;
  for (std::int64_t limit : {kBase, 3 * kBase, 5 * kBase, 8 * kBase}) {
    Budget budget(limit, 0.0);
    std::vector<std::int32_t> best = seed.solution.bid_of_job;
    lp_branch_and_bound(p, WindowLpOptions{}, budget, kBase, best);
    const double objective = objective_of(p, best);
    EXPECT_GE(objective, last) << limit;
    last = objective;
  }
}

TEST_F(ExactSolverTest, DefaultSolverHandsSmallWindowsToTheExactSolver) {
  const WindowProblem p = make_random_window(testing::tiny_random_spec(77, 13));
  SolverOptions options;
  options.exact_bids = static_cast<std::int32_t>(p.bids.size());
  const SolveResult staged = make_window_solver(kDefaultWindowSolver)->solve(p, options);
  const SolveResult exact = make_window_solver("exact")->solve(p, {});
  EXPECT_EQ(staged.status, SolveStatus::Optimal);
  EXPECT_EQ(staged.solution.bid_of_job, exact.solution.bid_of_job);
  options.exact_bids = static_cast<std::int32_t>(p.bids.size()) - 1;  // too many bids: off
  const SolveResult plain = make_window_solver(kDefaultWindowSolver)->solve(p, options);
  const SolveResult reference = make_window_solver(kDefaultWindowSolver)->solve(p, {});
  EXPECT_EQ(plain.solution.bid_of_job, reference.solution.bid_of_job);
  EXPECT_EQ(plain.effort, reference.effort);
}

}  // namespace
}  // namespace hs::solver
