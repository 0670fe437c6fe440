// The feasibility re-packing used by the large-neighbourhood search: it must find a
// rearrangement several jobs deep, respect every capacity, trade a cheaper job for the
// target only when allowed and profitable, and leave the incumbent alone otherwise.
#include <gtest/gtest.h>

#include "solver/compact_problem.hpp"
#include "solver/incumbent.hpp"
#include "solver/neighbourhood_packing.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

using testing::add_bid;
using testing::incumbent_with;
using testing::node_range;
using testing::uniform_problem;

// Six one-core nodes. Job 0 sits on nodes 0-1 and could move to 2-3; job 1 sits on 2-3 and
// could move to 4-5; job 2 (not started) fits only on nodes 0-1. Starting job 2 needs both
// others to shift: a chain two jobs deep.
WindowProblem chain_problem() {
  WindowProblem p = uniform_problem(3, 6, {1});
  add_bid(p, 0, 10.0, node_range(0, 2), {1});  // bid 0
  add_bid(p, 0, 9.0, node_range(2, 2), {1});   // bid 1
  add_bid(p, 1, 10.0, node_range(2, 2), {1});  // bid 2
  add_bid(p, 1, 9.0, node_range(4, 2), {1});   // bid 3
  add_bid(p, 2, 5.0, node_range(0, 2), {1});   // bid 4
  return p;
}

TEST(NeighbourhoodPacking, ShiftsAChainOfJobsToStartOneMore) {
  const WindowProblem problem = chain_problem();
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = incumbent_with(p, budget.effort(), {0, 2});
  ASSERT_TRUE(repack_neighbourhood(p, {2, 0, 1}, 0, budget, 100'000, incumbent));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{1, 3, 4}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 23.0);
  WindowSolution solution{incumbent.bid_of_job, incumbent.objective};
  EXPECT_FALSE(check_solution(problem, solution));
}

TEST(NeighbourhoodPacking, LeavesTheIncumbentAloneWhenNoPackingExists) {
  WindowProblem problem = chain_problem();
  problem.bids[3].uses[0].node = 2;  // job 1's alternative now overlaps job 0's: no room
  problem.bids[3].uses[1].node = 3;
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = incumbent_with(p, budget.effort(), {0, 2});
  EXPECT_FALSE(repack_neighbourhood(p, {2, 0, 1}, 0, budget, 100'000, incumbent));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{0, 2, -1}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 20.0);
  EXPECT_EQ(incumbent.ledger.remaining(0, 0), 0);
  EXPECT_EQ(incumbent.ledger.remaining(4, 0), 1);
}

TEST(NeighbourhoodPacking, RefusesAPackingThatLosesValue) {
  // Job 0 holds nodes 0-1 at value 10; its only other bid (nodes 2-3) is worth 1, so
  // starting job 1 (value 2, nodes 0-1) that way would lose 7.
  WindowProblem problem = uniform_problem(2, 4, {1});
  add_bid(problem, 0, 10.0, node_range(0, 2), {1});
  add_bid(problem, 0, 1.0, node_range(2, 2), {1});
  add_bid(problem, 1, 2.0, node_range(0, 2), {1});
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = incumbent_with(p, budget.effort(), {0});
  EXPECT_FALSE(repack_neighbourhood(p, {1, 0}, 0, budget, 100'000, incumbent));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{0, -1}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 10.0);
}

TEST(NeighbourhoodPacking, LeavesOutACheaperJobOnlyWhenAllowedAndWorthIt) {
  // Two one-core nodes; job 0 (value 3) holds both, job 1 (value 8) needs both.
  WindowProblem problem = uniform_problem(2, 2, {1});
  add_bid(problem, 0, 3.0, node_range(0, 2), {1});
  add_bid(problem, 1, 8.0, node_range(0, 2), {1});
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = incumbent_with(p, budget.effort(), {0});
  EXPECT_FALSE(repack_neighbourhood(p, {1, 0}, 0, budget, 100'000, incumbent));
  ASSERT_TRUE(repack_neighbourhood(p, {1, 0}, 1, budget, 100'000, incumbent));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{-1, 1}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 8.0);
  EXPECT_EQ(incumbent.ledger.remaining(0, 0), 0);
  // The reverse trade (job 0 in, the more valuable job 1 out) is never made.
  EXPECT_FALSE(repack_neighbourhood(p, {0, 1}, 1, budget, 100'000, incumbent));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{-1, 1}));
}

TEST(NeighbourhoodPacking, StopsAtItsEffortLimit) {
  const WindowProblem problem = chain_problem();
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = incumbent_with(p, budget.effort(), {0, 2});
  const std::int64_t before = budget.spent();
  EXPECT_FALSE(repack_neighbourhood(p, {2, 0, 1}, 0, budget, 0, incumbent));
  EXPECT_LE(budget.spent() - before, 200);
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{0, 2, -1}));
}

}  // namespace
}  // namespace hs::solver
