// The ejection walk: it must follow a displacement chain deeper than the local search's
// ejection chains, trade a cheaper job for a more valuable one, leave the incumbent alone
// when nothing better exists, keep the ledger in step with the choice, and never produce an
// infeasible or worse solution.
#include <gtest/gtest.h>

#include "solver/compact_problem.hpp"
#include "solver/ejection_walk.hpp"
#include "solver/incumbent.hpp"
#include "solver/random_instances.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

using testing::add_bid;
using testing::incumbent_with;
using testing::uniform_problem;

// The ledger must hold capacity minus the loads of the chosen bids on every node.
void expect_ledger_matches(const CompactProblem& p, const Incumbent& incumbent) {
  std::vector<std::int64_t> left(p.capacity.begin(), p.capacity.end());
  for (std::int32_t bid : incumbent.bid_of_job) {
    if (bid < 0) continue;
    for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
      for (std::int32_t d = 0; d < p.dims; ++d)
        left[static_cast<std::size_t>(p.use_node[u]) * p.dims + d] -=
            p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
  }
  for (std::int32_t n = 0; n < p.nodes; ++n)
    for (std::int32_t d = 0; d < p.dims; ++d)
      EXPECT_EQ(incumbent.ledger.remaining(n, d), left[static_cast<std::size_t>(n) * p.dims + d])
          << "node " << n << " dim " << d;
}

// Seven one-core nodes; job j (0-5) sits on node j and could also run on node j + 1;
// job 6 (not started) fits only on node 0. Starting it shifts all six jobs one node to the
// right: a chain six jobs deep, twice the depth of LocalSearch's ejection chains.
WindowProblem long_chain_problem() {
  WindowProblem p = uniform_problem(7, 7, {1});
  for (std::int32_t j = 0; j < 6; ++j) {
    add_bid(p, j, 10.0, {j}, {1});      // bid 2j: where it sits
    add_bid(p, j, 9.5, {j + 1}, {1});   // bid 2j + 1: one node to the right
  }
  add_bid(p, 6, 10.0, {0}, {1});  // bid 12
  return p;
}

// Every job 0-5 where it sits.
Incumbent chain_start(const CompactProblem& p, Budget& budget) {
  return incumbent_with(p, budget.effort(), {0, 2, 4, 6, 8, 10});
}

TEST(EjectionWalk, FollowsAChainSixJobsDeep) {
  const WindowProblem problem = long_chain_problem();
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = chain_start(p, budget);
  ASSERT_TRUE(EjectionWalk(p, budget, 1).improve(incumbent, {6}, 1'000'000));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{1, 3, 5, 7, 9, 11, 12}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 6 * 9.5 + 10.0);
  EXPECT_FALSE(check_solution(problem, {incumbent.bid_of_job, incumbent.objective}));
  expect_ledger_matches(p, incumbent);
}

// Two nodes of one core. Job 0 (value 5) holds node 0, job 1 (value 8) holds node 1;
// job 2 needs both and is worth `needs_both_value`.
WindowProblem two_for_one_problem(double needs_both_value) {
  WindowProblem problem = uniform_problem(3, 2, {1});
  add_bid(problem, 0, 5.0, {0}, {1});
  add_bid(problem, 1, 8.0, {1}, {1});
  add_bid(problem, 2, needs_both_value, {0, 1}, {1});
  return problem;
}

// Runs one walk for job 2 from the choice {job 0 on node 0, job 1 on node 1}.
Incumbent walk_two_for_one(const CompactProblem& p, Budget& budget, bool& improved) {
  Incumbent incumbent = incumbent_with(p, budget.effort(), {0, 1});
  EjectionWalk walk(p, budget, 1);
  improved = walk.improve(incumbent, {2}, 1'000'000);
  return incumbent;
}

TEST(EjectionWalk, TradesCheaperJobsForAMoreValuableOne) {
  const CompactProblem p = compact(two_for_one_problem(20.0));
  Budget budget(1'000'000, 0.0);
  bool improved = false;
  const Incumbent incumbent = walk_two_for_one(p, budget, improved);
  EXPECT_TRUE(improved);
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{-1, -1, 2}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 20.0);
  expect_ledger_matches(p, incumbent);
}

TEST(EjectionWalk, KeepsTheIncumbentWhenNothingBetterExists) {
  const CompactProblem p = compact(two_for_one_problem(12.0));  // less than 5 + 8
  Budget budget(1'000'000, 0.0);
  bool improved = true;
  const Incumbent incumbent = walk_two_for_one(p, budget, improved);
  EXPECT_FALSE(improved);
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{0, 1, -1}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 13.0);
  expect_ledger_matches(p, incumbent);
}

TEST(EjectionWalk, StopsAtTheEffortCap) {
  const CompactProblem p = compact(long_chain_problem());
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = chain_start(p, budget);
  EXPECT_FALSE(EjectionWalk(p, budget, 1).improve(incumbent, {6}, budget.spent()));  // no effort left
  EXPECT_EQ(incumbent.bid_of_job[6], -1);
}

// On random windows, starting from the greedy solution: every answer is feasible, never
// worse, matches its ledger, and the same seed gives the same answer.
TEST(EjectionWalk, RandomWindowsStayFeasibleAndDeterministic) {
  int improved = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const WindowProblem problem = testing::random_window(64, 40, seed);
    const CompactProblem p = compact(problem);
    std::vector<std::int32_t> first_answer;
    for (int run = 0; run < 2; ++run) {
      Budget budget(50'000'000, 0.0);
      Incumbent incumbent(p, budget.effort());
      std::vector<double> values(p.value.begin(), p.value.end());
      insert_in_order(p, order_by_descending(values, budget.effort()), incumbent);
      const double greedy = incumbent.objective;
      std::vector<std::int32_t> targets;
      for (std::int32_t j = 0; j < p.jobs; ++j)
        if (incumbent.bid_of_job[j] < 0) targets.push_back(j);
      EjectionWalk walk(p, budget, seed);
      if (walk.improve(incumbent, targets, 20'000'000) && run == 0) ++improved;
      EXPECT_GE(incumbent.objective, greedy);
      EXPECT_DOUBLE_EQ(incumbent.objective, objective_of(p, incumbent.bid_of_job));
      EXPECT_FALSE(check_solution(problem, {incumbent.bid_of_job, incumbent.objective}))
          << "seed " << seed;
      expect_ledger_matches(p, incumbent);
      if (run == 0) first_answer = incumbent.bid_of_job;
      else EXPECT_EQ(incumbent.bid_of_job, first_answer) << "seed " << seed;
    }
  }
  EXPECT_GE(improved, 6);  // the greedy start leaves room on most of these windows
}

}  // namespace
}  // namespace hs::solver
