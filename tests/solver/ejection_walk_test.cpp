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
using testing::uniform_problem;

Incumbent start_with(const CompactProblem& p, std::int64_t& effort,
                     const std::vector<std::int32_t>& bids) {
  Incumbent incumbent(p, effort);
  for (std::int32_t bid : bids) {
    incumbent.ledger.take(bid);
    incumbent.bid_of_job[p.job_of_bid[bid]] = bid;
    incumbent.objective += p.value[bid];
  }
  return incumbent;
}

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

TEST(EjectionWalk, FollowsAChainSixJobsDeep) {
  const WindowProblem problem = long_chain_problem();
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = start_with(p, budget.effort(), {0, 2, 4, 6, 8, 10});
  EjectionWalk walk(p, budget, 1);
  ASSERT_TRUE(walk.improve(incumbent, {6}, 1'000'000));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{1, 3, 5, 7, 9, 11, 12}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 6 * 9.5 + 10.0);
  EXPECT_FALSE(check_solution(problem, {incumbent.bid_of_job, incumbent.objective}));
  expect_ledger_matches(p, incumbent);
}

TEST(EjectionWalk, TradesACheaperJobForAMoreValuableOne) {
  // Two nodes of one core. Job 0 (value 5) holds node 0, job 1 (value 8) holds node 1;
  // job 2 (value 20) needs both. The best choice starts job 2 alone.
  WindowProblem problem = uniform_problem(3, 2, {1});
  add_bid(problem, 0, 5.0, {0}, {1});
  add_bid(problem, 1, 8.0, {1}, {1});
  add_bid(problem, 2, 20.0, {0, 1}, {1});
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = start_with(p, budget.effort(), {0, 1});
  EjectionWalk walk(p, budget, 1);
  ASSERT_TRUE(walk.improve(incumbent, {2}, 1'000'000));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{-1, -1, 2}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 20.0);
  expect_ledger_matches(p, incumbent);
}

TEST(EjectionWalk, KeepsTheIncumbentWhenNothingBetterExists) {
  // As above, but job 2 is worth less than the two jobs it would displace.
  WindowProblem problem = uniform_problem(3, 2, {1});
  add_bid(problem, 0, 5.0, {0}, {1});
  add_bid(problem, 1, 8.0, {1}, {1});
  add_bid(problem, 2, 12.0, {0, 1}, {1});
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = start_with(p, budget.effort(), {0, 1});
  EjectionWalk walk(p, budget, 1);
  EXPECT_FALSE(walk.improve(incumbent, {2}, 1'000'000));
  EXPECT_EQ(incumbent.bid_of_job, (std::vector<std::int32_t>{0, 1, -1}));
  EXPECT_DOUBLE_EQ(incumbent.objective, 13.0);
  expect_ledger_matches(p, incumbent);
}

TEST(EjectionWalk, StopsAtTheEffortCap) {
  const WindowProblem problem = long_chain_problem();
  const CompactProblem p = compact(problem);
  Budget budget(1'000'000, 0.0);
  Incumbent incumbent = start_with(p, budget.effort(), {0, 2, 4, 6, 8, 10});
  EjectionWalk walk(p, budget, 1);
  EXPECT_FALSE(walk.improve(incumbent, {6}, budget.spent()));  // no effort left
  EXPECT_EQ(incumbent.bid_of_job[6], -1);
}

// On random windows, starting from the greedy solution: every answer is feasible, never
// worse, matches its ledger, and the same seed gives the same answer.
TEST(EjectionWalk, RandomWindowsStayFeasibleAndDeterministic) {
  int improved = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    RandomWindowSpec spec;
    spec.nodes = 64;
    spec.jobs = 40;
    spec.seed = seed;
    const WindowProblem problem = make_random_window(spec);
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
