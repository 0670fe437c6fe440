// Independent parts (window_parts.hpp): a window splits only where no two jobs can compete,
// the parts map back to the window's jobs and bids, and the default solver, which solves such
// a window by parts, proves many small independent knapsacks optimal within its effort limit.
#include <gtest/gtest.h>

#include <random>

#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "solver/window_parts.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

using testing::add_bid;
using testing::uniform_problem;

TEST(WindowParts, SplitsOnlyWhereNoTwoJobsCanCompete) {
  WindowProblem p = uniform_problem(7, 6, {4});
  add_bid(p, 0, 1.0, {0, 1}, {2});
  add_bid(p, 1, 1.0, {1}, {3});
  add_bid(p, 2, 1.0, {2}, {2});
  add_bid(p, 3, 1.0, {2, 3}, {3});
  add_bid(p, 4, 1.0, {4}, {4});
  add_bid(p, 5, 1.0, {0}, {9});   // never fits: links nothing
  add_bid(p, 6, 1.0, {0, 5}, {0});  // takes nothing of node 0: competes with no one
  const std::vector<WindowPart> parts = independent_parts(p);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].job_of, (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(parts[0].bid_of, (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(parts[0].problem.node_count, 2);
  EXPECT_EQ(parts[1].job_of, (std::vector<std::int32_t>{2, 3}));
  EXPECT_EQ(parts[1].problem.node_count, 2);
  EXPECT_EQ(parts[1].problem.bids[1].uses.size(), 2u);
  EXPECT_EQ(parts[1].problem.bids[1].uses[1].node, 1);  // node 3, renumbered
  EXPECT_EQ(parts[2].job_of, (std::vector<std::int32_t>{4, 6}));  // the loners together
  EXPECT_EQ(parts[2].bid_of, (std::vector<std::int32_t>{4, 6}));
  EXPECT_TRUE(parts[2].problem.bids[1].uses.empty());

  // One part of two jobs or more (plus loners) is not split.
  WindowProblem one = uniform_problem(3, 3, {4});
  add_bid(one, 0, 1.0, {0}, {3});
  add_bid(one, 1, 1.0, {0, 1}, {3});
  add_bid(one, 2, 1.0, {2}, {3});
  EXPECT_TRUE(independent_parts(one).empty());
  EXPECT_TRUE(independent_parts(testing::crowded_window(50, 5, 3)).empty());
}

// `nodes` nodes of 8 cores and 2 GPUs, each with `per_node` jobs bidding once on it alone:
// independent two-dimensional knapsacks.
WindowProblem knapsack_per_node(std::int32_t nodes, std::int32_t per_node, std::uint32_t seed) {
  std::mt19937 rng(seed);
  WindowProblem p = uniform_problem(nodes * per_node, nodes, {8, 2});
  for (std::int32_t n = 0; n < nodes; ++n)
    for (std::int32_t k = 0; k < per_node; ++k) {
      const auto cores = static_cast<std::int32_t>(1 + rng() % 8);
      const auto gpus = static_cast<std::int32_t>(rng() % 3);
      add_bid(p, n * per_node + k, 1.0 + static_cast<double>(rng() % 1000) / 10.0, {n}, {cores, gpus});
    }
  return p;
}

// The optimum of knapsack_per_node's window, node by node, by trying every subset.
double optimum_node_by_node(const WindowProblem& p, std::int32_t per_node) {
  double total = 0.0;
  for (std::int32_t n = 0; n < p.node_count; ++n) {
    double best = 0.0;
    for (std::uint32_t subset = 0; subset < (1u << per_node); ++subset) {
      std::int32_t cores = 0, gpus = 0;
      double value = 0.0;
      for (std::int32_t k = 0; k < per_node; ++k)
        if (subset & (1u << k)) {
          const Bid& bid = p.bids[static_cast<std::size_t>(n * per_node + k)];
          cores += bid.uses[0].amount[0];
          gpus += bid.uses[0].amount[1];
          value += bid.value;
        }
      if (cores <= p.cap(n, 0) && gpus <= p.cap(n, 1)) best = std::max(best, value);
    }
    total += best;
  }
  return total;
}

TEST(WindowParts, IndependentKnapsacksAreProvenOptimal) {
  auto solver = make_window_solver("lagrangian");
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    const WindowProblem p = knapsack_per_node(40, 9, seed);
    ASSERT_EQ(independent_parts(p).size(), 40u);
    SolverOptions options;
    options.enumerate_bids = kDefaultEnumerateBids;
    const SolveResult result = solver->solve(p, options);
    ASSERT_EQ(result.call, CallStatus::Ok) << result.message;
    EXPECT_FALSE(check_solution(p, result.solution).has_value());
    EXPECT_NEAR(result.solution.objective, optimum_node_by_node(p, 9), 1e-9) << seed;
    EXPECT_EQ(result.status, SolveStatus::Optimal) << seed;
  }
}

// Also when the parts go to `exact` (`exact_bids`), whose seed and second run are inside
// its limit since session 41.
TEST(WindowParts, TheEffortLimitCoversAllParts) {
  auto solver = make_window_solver("lagrangian");
  const WindowProblem p = knapsack_per_node(200, 12, 77);
  for (std::int32_t exact_bids : {0, 400}) {
    if (exact_bids > 0 && !clp_available()) continue;
    for (std::int64_t limit : {1'000LL, 30'000LL, 400'000LL, 5'000'000LL}) {
      SolverOptions options;
      options.effort_limit = limit;
      options.enumerate_bids = kDefaultEnumerateBids;
      options.exact_bids = exact_bids;
      const SolveResult result = solver->solve(p, options);
      ASSERT_EQ(result.call, CallStatus::Ok) << result.message;
      EXPECT_LE(result.effort - result.bound_effort, limit) << exact_bids;
      EXPECT_FALSE(check_solution(p, result.solution).has_value());
      const SolveResult again = solver->solve(p, options);
      EXPECT_EQ(again.solution.bid_of_job, result.solution.bid_of_job);
    }
  }
}

// Four bench windows of 1024 x 50 x 5 side by side (635 bids), at the default limit with
// parts of <= 400 bids to `exact`, as `hetsched solve` does: a part's probe gets its seed's
// effort on top of the usual probe, so each part is proven on its own. With the probe alone
// (250,000 units, all of it the seed's) none is, and the window ends unproven.
TEST(WindowParts, PartsGoingToExactAreProvenOnTheirProbes) {
  if (!clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  WindowProblem window;
  for (std::uint64_t instance = 1000; instance < 1004; ++instance)
    append_beside(window, testing::bench_window(1024, 50, 5, instance));
  const auto parts = static_cast<std::int32_t>(independent_parts(window).size());
  ASSERT_GE(parts, 4);  // and the jobs that compete with no one
  SolverOptions options;
  options.exact_bids = 400;
  const SolveResult result = make_window_solver("lagrangian")->solve(window, options);
  ASSERT_EQ(result.call, CallStatus::Ok) << result.message;
  EXPECT_FALSE(check_solution(window, result.solution).has_value());
  EXPECT_EQ(result.status, SolveStatus::Optimal);
  EXPECT_EQ(result.parts, parts);
}

}  // namespace
}  // namespace hs::solver
