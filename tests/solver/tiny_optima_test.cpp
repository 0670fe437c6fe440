// Hand-checked optima on instances small enough to reason about on paper.
#include <gtest/gtest.h>

#include "solver/solvers.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

using testing::add_bid;
using testing::node_range;
using testing::uniform_problem;

SolveResult solve_with(std::string_view name, const WindowProblem& problem) {
  SolveResult result = make_window_solver(name)->solve(problem, SolverOptions{});
  EXPECT_EQ(result.call, CallStatus::Ok) << name << ": " << result.message;
  EXPECT_FALSE(check_solution(problem, result.solution)) << name;
  return result;
}

// Thesis §1.2 style: 4 nodes x (12 cores, 3 GPUs). J0 wants 24 cores (two full nodes, or
// 6 on each node); J1 6 cores + 2 GPUs on two nodes; J2 6 cores + 3 GPUs on two nodes.
// Taking J0's compact bid (the higher-valued one) blocks J2; the optimum spreads J0.
WindowProblem thesis_example() {
  WindowProblem p = uniform_problem(3, 4, {12, 3});
  add_bid(p, 0, 3.2, {0, 1}, {12, 0});      // 0: J0 compact
  add_bid(p, 0, 3.1, node_range(0, 4), {6, 0});  // 1: J0 spread
  add_bid(p, 1, 2.2, {0, 1}, {6, 2});       // 2
  add_bid(p, 1, 2.1, {2, 3}, {6, 2});       // 3
  add_bid(p, 2, 1.2, {2, 3}, {6, 3});       // 4
  add_bid(p, 2, 1.1, {0, 1}, {6, 3});       // 5
  return p;
}

TEST(TinyOptima, ThesisExampleStartsAllThreeJobs) {
  const WindowProblem p = thesis_example();
  for (const char* name : {"exhaustive", "lagrangian"}) {
    const SolveResult r = solve_with(name, p);
    EXPECT_EQ(r.solution.bid_of_job, (std::vector<std::int32_t>{1, 2, 4})) << name;
    EXPECT_NEAR(r.solution.objective, 3.1 + 2.2 + 1.2, 1e-12) << name;
    EXPECT_EQ(r.status, SolveStatus::Optimal) << name;
  }
}

// Motivating example of the IPSCHED paper scaled to 8 nodes x (8 cores, 2 GPUs).
TEST(TinyOptima, CoAllocationOfCpuAndGpuJobs) {
  WindowProblem p = uniform_problem(3, 8, {8, 2});
  add_bid(p, 0, 30.0, node_range(0, 4), {8, 0});  // 0: best fit of the CPU job
  add_bid(p, 0, 29.0, node_range(4, 4), {8, 0});  // 1
  add_bid(p, 0, 28.0, node_range(0, 8), {4, 0});  // 2: four cores everywhere
  add_bid(p, 1, 20.0, node_range(0, 4), {4, 2});
  add_bid(p, 1, 19.0, node_range(4, 4), {4, 2});
  add_bid(p, 2, 10.0, node_range(0, 4), {4, 2});
  add_bid(p, 2, 9.0, node_range(4, 4), {4, 2});
  for (const char* name : {"exhaustive", "lagrangian"}) {
    const SolveResult r = solve_with(name, p);
    EXPECT_NEAR(r.solution.objective, 28.0 + 20.0 + 9.0, 1e-12) << name;
    EXPECT_EQ(r.solution.bid_of_job[0], 2) << name;
  }
}

// One node, 10 cores: two 5-core jobs beat one 6-core job of higher value.
TEST(TinyOptima, TwoSmallJobsBeatOneLargerJob) {
  WindowProblem p = uniform_problem(3, 1, {10});
  add_bid(p, 0, 7.0, {0}, {6});
  add_bid(p, 1, 5.0, {0}, {5});
  add_bid(p, 2, 5.0, {0}, {5});
  for (const char* name : {"exhaustive", "lagrangian"}) {
    const SolveResult r = solve_with(name, p);
    EXPECT_EQ(r.solution.bid_of_job, (std::vector<std::int32_t>{-1, 1, 2})) << name;
    EXPECT_EQ(r.status, SolveStatus::Optimal) << name;
  }
}

TEST(TinyOptima, BidLargerThanANodeNeverWins) {
  WindowProblem p = uniform_problem(2, 2, {4, 0});
  add_bid(p, 0, 100.0, {0}, {5, 0});  // more cores than exist
  add_bid(p, 0, 1.0, {1}, {4, 0});
  add_bid(p, 1, 50.0, {0}, {1, 1});   // a GPU where there is none
  for (const std::string& name : window_solver_names()) {
    const SolveResult r = solve_with(name, p);
    EXPECT_EQ(r.solution.bid_of_job, (std::vector<std::int32_t>{1, -1})) << name;
  }
}

TEST(TinyOptima, EmptyWindowAndJobsWithoutBids) {
  WindowProblem empty = uniform_problem(0, 3, {8, 2});
  WindowProblem no_bids = uniform_problem(4, 3, {8, 2});
  for (const std::string& name : window_solver_names()) {
    for (const WindowProblem* p : {&empty, &no_bids}) {
      const SolveResult r = solve_with(name, *p);
      EXPECT_EQ(r.solution.objective, 0.0) << name;
      EXPECT_EQ(r.solution.bid_of_job.size(), static_cast<std::size_t>(p->job_count)) << name;
    }
  }
}

TEST(TinyOptima, ExactCapacityIsFeasible) {
  WindowProblem p = uniform_problem(2, 1, {8, 2});
  add_bid(p, 0, 3.0, {0}, {4, 1});
  add_bid(p, 1, 2.0, {0}, {4, 1});
  for (const std::string& name : window_solver_names()) {
    const SolveResult r = solve_with(name, p);
    EXPECT_EQ(r.solution.bid_of_job, (std::vector<std::int32_t>{0, 1})) << name;
    EXPECT_EQ(r.status, SolveStatus::Optimal) << name;
  }
}

}  // namespace
}  // namespace hs::solver

namespace hs::solver {
namespace {

// Three dimensions (cores, memory GB, GPUs): memory is the binding one here, and a bid
// with no node uses at all always fits.
TEST(TinyOptima, EveryDimensionBinds) {
  WindowProblem p = testing::uniform_problem(4, 2, {16, 64, 2});
  testing::add_bid(p, 0, 5.0, {0}, {2, 60, 0});   // 0: memory hog on node 0
  testing::add_bid(p, 0, 4.0, {1}, {2, 60, 0});   // 1: same on node 1
  testing::add_bid(p, 1, 3.0, {0}, {2, 10, 1});   // 2
  testing::add_bid(p, 1, 2.9, {1}, {2, 10, 1});   // 3
  testing::add_bid(p, 2, 3.0, {0, 1}, {1, 8, 0}); // 4: needs 8 GB on both nodes
  testing::add_bid(p, 3, 0.5, {}, {});            // 5: uses nothing
  for (const std::string& name : window_solver_names()) {
    const SolveResult r = make_window_solver(name)->solve(p, SolverOptions{});
    ASSERT_EQ(r.call, CallStatus::Ok) << name << ": " << r.message;
    EXPECT_FALSE(check_solution(p, r.solution)) << name;
    if (name == "greedy") continue;  // a heuristic: takes job 2 by density and misses this
    // Job 0 on either node blocks job 2 (60 + 8 > 64); 5 + 3 (job 1 on the other node)
    // + 0.5 = 8.5 beats 3 + 3 + 0.5 = 6.5 (job 1 and job 2 without job 0).
    EXPECT_NEAR(r.solution.objective, 5.0 + 2.9 + 0.5, 1e-9) << name;
    EXPECT_EQ(r.solution.bid_of_job, (std::vector<std::int32_t>{0, 3, -1, 5})) << name;
  }
}

}  // namespace
}  // namespace hs::solver
