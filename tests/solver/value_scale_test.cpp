#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "solver/value_scale.hpp"

namespace hs::solver {
namespace {

WindowProblem scaled(WindowProblem problem, int exponent) {
  for (Bid& bid : problem.bids) bid.value = std::ldexp(bid.value, exponent);
  return problem;
}

double largest_value(const WindowProblem& problem) {
  double largest = 0.0;
  for (const Bid& bid : problem.bids) largest = std::max(largest, bid.value);
  return largest;
}

// The window scaled by a power of two so that its largest value lies in [2^e, 2^(e+1)).
WindowProblem with_largest_at(const WindowProblem& problem, int e) {
  return scaled(problem, e - std::ilogb(largest_value(problem)));
}

WindowProblem crowded_window(std::uint64_t seed) {
  RandomWindowSpec spec;
  spec.nodes = 128;
  spec.jobs = 50;
  spec.max_bids_per_job = 5;
  spec.seed = seed;
  return make_random_window(spec);
}

TEST(ValueScale, LeavesWindowsWhoseLargestValueLiesFromOneTo2To64) {
  WindowProblem p = crowded_window(3);
  EXPECT_EQ(value_scale_exponent(p), 0);
  p = with_largest_at(p, 0);
  EXPECT_EQ(value_scale_exponent(p), 0);
  p = scaled(p, 63);  // largest in [2^63, 2^64)
  EXPECT_EQ(value_scale_exponent(p), 0);
  EXPECT_EQ(value_scale_exponent(WindowProblem{}), 0);
}

TEST(ValueScale, BringsTheLargestValueIntoTheMeasuredRange) {
  const WindowProblem window = crowded_window(3);
  for (int exponent : {-1, -12, -30, -60, -1000, 64, 90, 300, 1000}) {
    const WindowProblem p = with_largest_at(window, exponent);
    const int k = value_scale_exponent(p);
    const double largest = std::ldexp(largest_value(p), k);
    EXPECT_GE(largest, 1024.0) << exponent;
    EXPECT_LT(largest, 2048.0) << exponent;
  }
}

// A window of values around 1e-6 is solved as the same window in the solvers' measured
// range: the same bids, the same status, objective and bound scaled back exactly. Before,
// the absolute tolerances let `exact` and `lagrangian` call such a window optimal at the
// seed's answer, 1-2 % below what the scaled window reaches.
TEST(ValueScale, SmallValuesAreSolvedAsTheirScaledWindow) {
  for (std::uint64_t seed : {11u, 12u}) {
    const WindowProblem window = crowded_window(seed);
    const WindowProblem in_range = with_largest_at(window, 10);
    const WindowProblem tiny = scaled(in_range, -30);
    for (const std::string& name : window_solver_names()) {
      if (name == "cbc" || name == "exhaustive") continue;  // a child process; <= 24 jobs
      SolverOptions options;
      options.effort_limit = 2'000'000;
      const SolveResult reference = make_window_solver(name)->solve(in_range, options);
      const SolveResult small = make_window_solver(name)->solve(tiny, options);
      EXPECT_EQ(small.status, reference.status) << name << " seed " << seed;
      EXPECT_EQ(small.solution.bid_of_job, reference.solution.bid_of_job) << name << " seed " << seed;
      EXPECT_EQ(small.solution.objective, std::ldexp(reference.solution.objective, -30)) << name;
      EXPECT_EQ(small.bound, std::ldexp(reference.bound, -30)) << name;
    }
  }
}

// Values of 10^30 and more: CLP asserted on objective coefficients of 1e25 and the process
// aborted (`exact`, and `lagrangian` with its LP bound). Now solved as their scaled window.
TEST(ValueScale, HugeValuesAreSolvedAsTheirScaledWindow) {
  const WindowProblem window = crowded_window(11);
  const WindowProblem in_range = with_largest_at(window, 10);
  const WindowProblem huge = scaled(in_range, 100);
  for (const std::string& name : window_solver_names()) {
    if (name == "cbc" || name == "exhaustive") continue;
    SolverOptions options;
    options.effort_limit = 2'000'000;
    options.lp_bound = true;
    const SolveResult reference = make_window_solver(name)->solve(in_range, options);
    const SolveResult big = make_window_solver(name)->solve(huge, options);
    EXPECT_EQ(big.call, CallStatus::Ok) << name;
    EXPECT_EQ(big.solution.bid_of_job, reference.solution.bid_of_job) << name;
    EXPECT_EQ(big.solution.objective, std::ldexp(reference.solution.objective, 100)) << name;
    EXPECT_EQ(big.bound, std::ldexp(reference.bound, 100)) << name;
  }
}

TEST(ValueScale, ValuesFarBelowTheLargestStayPositive) {
  WindowProblem p = crowded_window(3);
  p.bids[0].value = 1e300;
  p.bids[1].value = 1e-300;
  const SolveResult r = make_window_solver("greedy")->solve(p, {});
  EXPECT_EQ(r.call, CallStatus::Ok);
  EXPECT_GT(r.solution.objective, 0.0);
}

}  // namespace
}  // namespace hs::solver
