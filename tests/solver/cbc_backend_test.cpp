#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "solver/mip_model.hpp"
#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

TEST(MipModel, WindowToMipHasOneColumnPerBidAndCheckableRows) {
  WindowProblem p = testing::uniform_problem(2, 2, {4, 1});
  testing::add_bid(p, 0, 10.0, {0}, {4, 0});
  testing::add_bid(p, 0, 9.0, {1}, {2, 1});
  testing::add_bid(p, 1, 5.0, {0, 1}, {1, 1});
  testing::add_bid(p, 1, 4.0, {1}, {9, 0});  // cannot fit: fixed to 0
  const MipModel m = window_to_mip(p);
  ASSERT_EQ(m.columns.size(), 4u);
  EXPECT_EQ(m.columns[3].upper, 0.0);
  EXPECT_FALSE(find_model_defect(m));
  EXPECT_EQ(max_violation(m, {1, 0, 0, 0}), 0.0);
  EXPECT_GT(max_violation(m, {1, 0, 1, 0}), 0.0);  // node 0 cores 5 > 4
  EXPECT_GT(max_violation(m, {1, 1, 0, 0}), 0.0);  // two bids of job 0
  EXPECT_GT(max_violation(m, {0, 0, 0, 1}), 0.0);  // fixed column
  EXPECT_GT(max_violation(m, {0.5, 0, 0, 0}), 0.0);  // fractional
}

TEST(MipModel, DefectsAreFound) {
  MipModel m;
  m.columns.resize(2);
  MipRow row;
  row.columns = {0, 2};
  row.coefficients = {1.0, 1.0};
  m.rows.push_back(row);
  EXPECT_TRUE(find_model_defect(m));
  m.rows[0].columns = {0, 0};
  EXPECT_TRUE(find_model_defect(m));
  m.rows[0].columns = {0, 1};
  m.rows[0].coefficients = {1.0};
  EXPECT_TRUE(find_model_defect(m));
}

TEST(MipModel, WithoutCbcSolvingIsACallError) {
  if (cbc_available()) GTEST_SKIP() << "built with CBC";
  MipModel m;
  m.columns.push_back({0.0, 1.0, true, 1.0});
  const MipResult r = solve_mip_cbc(m, 1.0);
  EXPECT_EQ(r.call, CallStatus::Error);
  EXPECT_NE(r.message.find("no CBC"), std::string::npos) << r.message;
}

class CbcBackend : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cbc_available()) GTEST_SKIP() << "built without CBC";
  }

  // A random window of 1,408 nodes and 200 jobs: CBC needs seconds on it.
  static MipModel large_window_model() {
    RandomWindowSpec spec;
    spec.nodes = 1408;
    spec.jobs = 200;
    spec.seed = 4;
    return window_to_mip(make_random_window(spec));
  }
};

TEST_F(CbcBackend, SolvesAGeneralIntegerModel) {
  // max 5a + 4b + 3c, 2a + 3b + c <= 5, 4a + b + 2c <= 11, 3a + 4b + 2c <= 8, a,b,c in 0..10
  MipModel m;
  for (double objective : {5.0, 4.0, 3.0}) m.columns.push_back({0.0, 10.0, true, objective});
  auto row = [&m](std::vector<double> coefficients, double upper) {
    MipRow r;
    r.columns = {0, 1, 2};
    r.coefficients = std::move(coefficients);
    r.upper = upper;
    m.rows.push_back(r);
  };
  row({2, 3, 1}, 5);
  row({4, 1, 2}, 11);
  row({3, 4, 2}, 8);
  const MipResult r = solve_mip_cbc(m, 5.0);
  ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
  EXPECT_EQ(r.status, SolveStatus::Optimal);
  EXPECT_NEAR(r.objective, 13.0, 1e-6);  // a = 2, b = 0, c = 1
  EXPECT_LE(max_violation(m, r.values), 1e-6);
}

TEST_F(CbcBackend, MalformedModelIsACallError) {
  MipModel m;
  m.columns.resize(1);
  m.rows.push_back(MipRow{{3}, {1.0}, 0.0, 1.0});
  const MipResult r = solve_mip_cbc(m, 1.0);
  EXPECT_EQ(r.call, CallStatus::Error);
}

TEST_F(CbcBackend, HardLimitNeverHangsTheCaller) {
  const MipModel m = large_window_model();
  const auto start = std::chrono::steady_clock::now();
  const MipResult r = solve_mip_cbc(m, 0.05, 0.05);  // kill 0.1 s in, CBC or not
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0);
  EXPECT_EQ(r.call, CallStatus::Ok) << r.message;
  if (!r.values.empty()) EXPECT_LE(max_violation(m, r.values), 1e-6);
  else EXPECT_EQ(r.status, SolveStatus::NoSolution);
}

// A window always has a solution (start nothing), so CBC stopped by its time limit before
// it found one (in its root LP, under load) reports none, never infeasibility.
TEST_F(CbcBackend, AStopOnTimeIsNeverCalledInfeasible) {
  const MipModel m = large_window_model();
  for (double limit : {0.001, 0.003, 0.01, 0.03}) {
    const MipResult r = solve_mip_cbc(m, limit, 5.0);
    ASSERT_EQ(r.call, CallStatus::Ok) << r.message;
    EXPECT_NE(r.status, SolveStatus::Infeasible) << "limit " << limit << " s";
  }
}

TEST_F(CbcBackend, LagrangianMatchesCbcOnSmallInstances) {
  auto lagrangian = make_window_solver("lagrangian");
  auto cbc = make_window_solver("cbc");
  int compared = 0, matches = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    RandomWindowSpec spec;
    spec.seed = seed;
    spec.nodes = 32;
    spec.jobs = 12;
    spec.max_bids_per_job = 5;
    spec.max_nodes_per_job = 8;
    const WindowProblem p = make_random_window(spec);
    const SolveResult exact = cbc->solve(p, SolverOptions{0, 20.0, 1});
    ASSERT_EQ(exact.call, CallStatus::Ok) << exact.message;
    ASSERT_FALSE(check_solution(p, exact.solution));
    const SolveResult heuristic = lagrangian->solve(p, {});
    if (exact.status != SolveStatus::Optimal) continue;
    ++compared;
    EXPECT_LE(heuristic.solution.objective, exact.solution.objective + 1e-6) << seed;
    EXPECT_GE(heuristic.bound, exact.solution.objective - 1e-6) << seed;
    matches += heuristic.solution.objective >= exact.solution.objective - 1e-6;
  }
  std::printf("lagrangian matched CBC's optimum on %d of %d small instances\n", matches, compared);
  EXPECT_GE(compared, 25);
  EXPECT_GE(matches, compared - 1);
}

// No window is infeasible (no bid at all always fits). On amounts and capacities of
// 2^31 - 1 CBC 2.10 answered "infeasible"; the wrapper reports that as a failed call, not as
// a property of the window.
TEST_F(CbcBackend, NeverCallsAWindowInfeasible) {
  constexpr std::int32_t kMost = 2147483647;
  WindowProblem p = testing::uniform_problem(3, 1, {kMost});
  testing::add_bid(p, 0, 5.0, {0}, {kMost});
  testing::add_bid(p, 1, 5.0, {0}, {1});
  testing::add_bid(p, 2, 5.0, {0}, {kMost});
  const SolveResult r = make_window_solver("cbc")->solve(p, SolverOptions{0, 20.0, 1});
  EXPECT_NE(r.status, SolveStatus::Infeasible);
  if (r.call == CallStatus::Ok) {
    EXPECT_FALSE(check_solution(p, r.solution));
    EXPECT_EQ(r.solution.objective, 5.0);
  } else {
    EXPECT_NE(r.message.find("infeasible"), std::string::npos) << r.message;
  }
}

// A window without bids has one answer, the empty choice, as every other solver says; CBC,
// given no column, returned no values and the wrapper said "no solution".
TEST_F(CbcBackend, AWindowWithoutBidsIsSolvedByTheEmptyChoice) {
  const WindowProblem p = testing::uniform_problem(2, 1, {4});
  const SolveResult r = make_window_solver("cbc")->solve(p, SolverOptions{0, 20.0, 1});
  EXPECT_EQ(r.call, CallStatus::Ok);
  EXPECT_EQ(r.status, SolveStatus::Optimal);
  EXPECT_EQ(r.solution.bid_of_job, (std::vector<std::int32_t>{-1, -1}));
  EXPECT_EQ(r.solution.objective, 0.0);
  EXPECT_EQ(r.bound, 0.0);
}

}  // namespace
}  // namespace hs::solver
